"""Big Base slot abilities (rules 003, "Slots"; the board file's vocabulary, board.py): which of
them answer a batch of events, and what each does for the player whose cards are in the slot.
Which slot a card takes is the game's (`BigBaseGame.enter_base`); this module is what the slot
then does, written as a card module is: through `Ctx` and its verbs."""
from __future__ import annotations

from smashup.engine.core import ACTION, MINION, counted
from smashup.engine.effects import Ctx

from .board import ON_OCCUPATION, ONGOING


def slot_extras(game, batch) -> list:
    """The slot abilities that answer a batch: "on occupation" for each `occupied` event;
    the ongoing "first_minion_counter" for the first minion a player plays into that slot
    in a round (marked as it is found: the first one played is the one that counts)."""
    extras = []
    for event in batch:
        if event.kind == "occupied":
            ability = game.slot_ability(event.base, event.data["slot"])
            if ability is not None and ability.when == ON_OCCUPATION:
                extras.append(_slot_extra(game, ability, event.base, event.data["slot"],
                                          event.player, event))
        elif event.kind == "minion_played" and event.base is not None:
            index = game.slot_of(event.base, event.player)
            if index is None:
                continue
            ability = game.slot_ability(event.base, index)
            mark = (event.base, index, event.player)
            if (ability is not None and ability.when == ONGOING
                    and ability.effect == "first_minion_counter"
                    and mark not in game.round_marks):
                game.round_marks.append(mark)
                extras.append(_slot_extra(game, ability, event.base, index, event.player, event))
    return extras


def _slot_extra(game, ability, uid, index, seat, event):
    label = f"{game.side_name(uid)} slot {index + 1} ({game.pname(seat)}): {ability.words()}"
    card = game.slot(uid).card
    return (label, card, lambda: slot_effect(game, ability, uid, seat, event))


def slot_effect(game, ability, uid, seat, event):
    """What a slot ability does, for the player whose cards are in the slot (the board file's
    vocabulary). It is the board's ability, not a player's card: nothing protects from it as
    from another player's card. From resolution 3 the slot's holder does it (issue 24: every
    ability's effects are done by a player; `Ctx.performed_by`), as a base's "that player
    may"; before, the board did it for nobody."""
    ctx = Ctx(game, game.slot(uid).card, seat, base=uid).performed_by(seat)
    effect, arg = ability.effect, ability.arg
    if effect == "draw":
        ctx.draw(seat, arg("amount"))
    elif effect == "loot":
        ctx.draw(seat, arg("draw"))
        for _ in range(min(arg("discard"), len(ctx.hand(seat)))):
            chosen = yield from ctx.choose_cards(ctx.one_of_each(ctx.hand(seat)),
                                                 "Discard a card (the slot's ability)")
            ctx.discard_from_hand(seat, chosen)
    elif effect == "extra_minion":
        yield from ctx.grant_extra(MINION, seat=seat, max_power=arg("max_power"),
                                   base=uid if arg("here") else None)
    elif effect == "extra_action":
        yield from ctx.grant_extra(ACTION, seat=seat)
    elif effect == "power_counter":
        mine = ctx.one_of_each(ctx.targets(base=uid, controller=seat))
        target = yield from ctx.choose_minion(
            mine, f"Put {counted(arg('amount'), '+1 power counter')} on which of your "
            "minions?")
        if target is not None:
            ctx.add_counters(target, arg("amount"))
    elif effect == "scry":
        top = ctx.look_at_top(seat, arg("amount"))
        if not top:
            return
        bottom = yield from ctx.choose_any_number(
            top, "Put which of these cards on the bottom of your deck?", reveal=top)
        rest = [c for c in top if c not in bottom]
        on_top = yield from ctx.choose_order(rest, "Which card goes on top of your deck?",
                                             reveal=top)
        under = yield from ctx.choose_order(
            bottom, "Which card goes first under your deck (the last one is the bottom)?",
            reveal=top)
        ctx.put_on_deck(on_top)
        ctx.put_on_deck(under, bottom=True)
    elif effect == "move_in":
        theirs = ctx.one_of_each(ctx.targets(controller=seat, effect="move",
                                             where=lambda m: ctx.base_of(m) != uid))
        target = yield from ctx.choose_minion(
            theirs, f"Move one of your minions to {game.side_name(uid)}?", optional=True)
        if target is not None:
            yield from ctx.move(target, uid)
    elif effect == "first_minion_counter":
        if ctx.in_play(event.card) and ctx.base_of(event.card) == uid:
            ctx.add_counters(event.card, 1)
