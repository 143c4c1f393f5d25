"""The effect vocabulary that card abilities are written in.

An ability receives a `Ctx`: the card whose ability it is, "you" (`ctx.me`, its controller) and
"here" (`ctx.here`, its base, or where it last was). Card code reads the game only through it:
queries are plain methods; effects that may ask a question, be prevented or replaced, or set off
reactions are generators used with `yield from` (a generator method called without `yield from`
raises EngineError instead of silently doing nothing: see `Effect`). The terms follow the
rulebooks' definitions (WWWT "Terms"): destroy, return, move, place, discard, transfer and play are
distinct events, each announced as its own `Event` naming the card and the player who caused it
(`by_card`, `by_player`), so that the cards that react to one do not react to another.

`Ctx` is `_Ctx` (context.py: its fields and its questions about the board) with the verbs of the
verb modules attached below, each a function of its module taking the Ctx first: one family of
the vocabulary per module. smashup/engine/README.md has the vocabulary as a table.
"""
from __future__ import annotations

import inspect

from . import verbs_bases, verbs_board, verbs_choose, verbs_piles, verbs_plays
from .context import (  # noqa: F401 (the vocabulary's names, imported from here by the engine and tests)
    PIPELINE_KINDS,
    UNTIL,
    VERB_INTENT,
    Effect,
    _Ctx,
    _effect,
    board_label,
    effect_kind,
)


class Ctx(_Ctx):
    """What an ability sees and does: `_Ctx`'s questions (context.py) and the verbs below, each
    generator verb wrapped (Effect) by the loop after the class."""

    __slots__ = ()

    # Questions to a player (verbs_choose.py)
    choose_minion = verbs_choose.choose_minion
    choose_minions = verbs_choose.choose_minions
    choose_base = verbs_choose.choose_base
    choose_cards = verbs_choose.choose_cards
    choose_actions = verbs_choose.choose_actions
    choose_order = verbs_choose.choose_order
    choose_player = verbs_choose.choose_player
    choose_one = verbs_choose.choose_one
    name_faction = verbs_choose.name_faction
    may = verbs_choose.may
    _able = verbs_choose._able
    choose_and = verbs_choose.choose_and
    _move_intent = verbs_choose._move_intent
    choose_and_move = verbs_choose.choose_and_move
    choose_any_number = verbs_choose.choose_any_number
    choose_same_name = verbs_choose.choose_same_name
    choose_play = verbs_choose.choose_play
    # A player's hand, deck and discard pile (verbs_piles.py)
    draw = verbs_piles.draw
    discard_from_hand = verbs_piles.discard_from_hand
    discard_at_random = verbs_piles.discard_at_random
    reveal_hand_to = verbs_piles.reveal_hand_to
    _deck_end = verbs_piles._deck_end
    _whose_deck = verbs_piles._whose_deck
    look_at_top = verbs_piles.look_at_top
    look_then_top_or_bottom = verbs_piles.look_then_top_or_bottom
    choose_deck_end = verbs_piles.choose_deck_end
    reveal_top = verbs_piles.reveal_top
    discard_from_deck = verbs_piles.discard_from_deck
    discard = verbs_piles.discard
    _discard_card = verbs_piles._discard_card
    search = verbs_piles.search
    search_deck = verbs_piles.search_deck
    shuffle_deck = verbs_piles.shuffle_deck
    place_in_hand = verbs_piles.place_in_hand
    put_on_deck = verbs_piles.put_on_deck
    shuffle_into_deck = verbs_piles.shuffle_into_deck
    # The base deck and bases in play (verbs_bases.py)
    refill_base_deck = verbs_bases.refill_base_deck
    look_at_bases = verbs_bases.look_at_bases
    reveal_bases = verbs_bases.reveal_bases
    discard_bases = verbs_bases.discard_bases
    put_bases_on_deck = verbs_bases.put_bases_on_deck
    search_base_deck = verbs_bases.search_base_deck
    top_base = verbs_bases.top_base
    base_discard_pile = verbs_bases.base_discard_pile
    put_back_bases = verbs_bases.put_back_bases
    _bases_entered = verbs_bases._bases_entered
    swap_base = verbs_bases.swap_base
    add_base = verbs_bases.add_base
    destroy_base = verbs_bases.destroy_base
    shuffle_base_deck = verbs_bases.shuffle_base_deck
    # Plays: extra plays, plays by abilities, restrictions (verbs_plays.py)
    grant_extra = verbs_plays.grant_extra
    play_extra_now = verbs_plays.play_extra_now
    _play_now = verbs_plays._play_now
    can_play = verbs_plays.can_play
    playable_bases = verbs_plays.playable_bases
    _ability_play = verbs_plays._ability_play
    restrict = verbs_plays.restrict
    _where_from = verbs_plays._where_from
    play_minion = verbs_plays.play_minion
    attach = verbs_plays.attach
    after_resolving = verbs_plays.after_resolving
    count_as_action_play = verbs_plays.count_as_action_play
    # Cards in play and numbers: VP, counters, power, destroy, move, return... (verbs_board.py)
    gain_vp = verbs_board.gain_vp
    add_counters = verbs_board.add_counters
    add_power = verbs_board.add_power
    power_until_end_of_turn = verbs_board.power_until_end_of_turn
    lasting = verbs_board.lasting
    lasting_effects = verbs_board.lasting_effects
    cancel_abilities = verbs_board.cancel_abilities
    abilities_cancelled = verbs_board.abilities_cancelled
    cancel_base_until_my_next_turn = verbs_board.cancel_base_until_my_next_turn
    _event = verbs_board._event
    _leave_play = verbs_board._leave_play
    _allowed = verbs_board._allowed
    destroy = verbs_board.destroy
    destroy_action = verbs_board.destroy_action
    discard_from_play = verbs_board.discard_from_play
    return_to_hand = verbs_board.return_to_hand
    move = verbs_board.move
    place_on_deck_bottom = verbs_board.place_on_deck_bottom
    transfer = verbs_board.transfer
    change_breakpoint = verbs_board.change_breakpoint
    move_your_minions = verbs_board.move_your_minions


# Every generator method of Ctx (a verb or a question) is wrapped so that calling it without
# `yield from` cannot pass unnoticed (Effect). No upkeep: a new generator function is wrapped too.
# Found by the generator flag of its code, which a function compiled by Cython (native.py, with
# binding) carries as a Python function does.
for _name, _fn in [*vars(_Ctx).items(), *vars(Ctx).items()]:
    if getattr(getattr(_fn, "__code__", None), "co_flags", 0) & inspect.CO_GENERATOR:
        setattr(Ctx, _name, _effect(_fn))
del _name, _fn
