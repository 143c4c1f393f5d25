"""The bases of the Core Set."""
from smashup.engine import MINION, base

homeworld = base("The Homeworld", "core", 23, (4, 2, 1), faction="Aliens", text=(
    "Once per turn, after a player plays a minion here, that player may play an extra minion of "
    "power 2 or less on any base."))


@homeworld.trigger("minion_played",
                   applies=lambda g, c, e: g.loc[c] == ("base", e.base))
def homeworld_extra(ctx, event):
    # Errata: once per turn, counted per player (our reading, noted in the catalog).
    if ctx.flag("homeworld", event.player):
        return
    ctx.set_flag("homeworld", event.player)
    yield from ctx.grant_extra(MINION, seat=event.player, max_power=2)


mothership = base("The Mothership", "core", 20, (4, 2, 1), faction="Aliens", text=(
    "After this base scores, the winner may return one of their minions of power 3 or less from "
    "here to their hand."))


@mothership.hook("after_scoring")
def mothership_rescue(ctx, scoring):
    uid = scoring.slot.uid
    for seat in _in_turn_order(ctx, scoring.winners()):
        mine = ctx.minions(base=uid, controller=seat, where=lambda m: ctx.power(m) <= 3)
        target = yield from ctx.choose_minion(
            mine, "Return one of your minions of power 3 or less to your hand?", optional=True,
            seat=seat)
        if target is not None:
            scoring.instead[target] = "hand"


dojo = base("Ninja Dojo", "core", 18, (2, 3, 2), faction="Ninjas", text=(
    "After this base scores, the winner may destroy any one minion in play."))


@dojo.hook("after_scoring")
def dojo_strike(ctx, scoring):
    for seat in _in_turn_order(ctx, scoring.winners()):
        target = yield from ctx.choose_minion(ctx.minions(), "Destroy a minion?", optional=True,
                                              seat=seat)
        if target is not None:
            yield from ctx.destroy(target)


goju = base("Temple of Goju", "core", 18, (2, 3, 2), faction="Ninjas", text=(
    "After this base scores, each player puts their highest-power minion here on the bottom of "
    "its owner's deck instead of the discard pile."))


@goju.hook("after_scoring")
def goju_sends_back(ctx, scoring):
    uid = scoring.slot.uid
    for seat in ctx.game.seats_from_current():
        mine = ctx.minions(base=uid, controller=seat, affectable=False)
        if not mine:
            continue
        top = max(ctx.power(m) for m in mine)
        strongest = [m for m in mine if ctx.power(m) == top]
        # A tie for the strongest: that player chooses (our reading; no ruling found).
        target = yield from ctx.choose_minion(
            strongest, "Which of your strongest minions goes to the bottom of its deck?",
            seat=seat)
        scoring.instead[target] = "deck_bottom"


def _in_turn_order(ctx, seats):
    """Tied winners each use the ability, from the current player clockwise (WWWT Tie Fighter)."""
    return [s for s in ctx.game.seats_from_current() if s in seats]
