"""Signals of live play, so that other apps (tournaments) can react to games without play importing them.

``game_finished`` is sent once per game, after the commit of the choice that ended it (never inside
the transaction, never for a choice that was rolled back), with:

- ``game_id``: the ``play.Game`` pk;
- ``vp``: the final VP of each seat, in seat order;
- ``winner``: the winning seat, or None (a tie shared or nobody could win);
- ``shared_winners``: the seats that share the win when a tie was not broken (else []).

Receivers must not count on being called (a crash between the commit and the send loses it): the
tournaments app also checks finished games in its periodic sweep.

``game_notes`` asks other apps what a game's page should say about the game (``render.game_notes``):
receivers get ``game`` (the ``play.Game`` row) and ``page`` (True for the whole page, False for a
live update of a game that was ended before its end) and return None or a dict with ``ended``, a
sentence that replaces "The site's staff ended this game" when they ended it (a tournament table
whose result an organizer typed in), and with ``page``, ``html``: a fragment (already escaped) shown
above the board, e.g. a tournament table's clock.
"""

from django.dispatch import Signal

game_finished = Signal()
game_notes = Signal()
