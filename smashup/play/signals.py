"""Signals of live play, so that other apps (tournaments) can react to games without play importing them.

``game_finished`` is sent once per game, after the commit of the choice that ended it (never inside
the transaction, never for a choice that was rolled back), with:

- ``game_id``: the ``play.Game`` pk;
- ``vp``: the final VP of each seat, in seat order;
- ``winner``: the winning seat, or None (a tie shared or nobody could win);
- ``shared_winners``: the seats that share the win when a tie was not broken (else []).

Receivers must not count on being called (a crash between the commit and the send loses it): the
tournaments app also checks finished games in its periodic sweep.
"""

from django.dispatch import Signal

game_finished = Signal()
