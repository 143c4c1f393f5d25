"""Tornados (It's Your Fault!): moving minions, anyone's, even just before a base scores. Rulings
follow the catalog (iyf.yaml) and the IYF rulebook's clarifications (Twister, Not in Kansas)."""
from smashup.engine import Faction

tornados = Faction("Tornados", set="iyf")


def _other_bases(ctx, uid):
    return ctx.bases(lambda u: u != uid)


def _whirl(ctx, limit, optional):
    """Move one minion of power `limit` or less (anyone's) either from this base to another one,
    or from another base to this one (Monster Tornado, Twister)."""
    here = ctx.here
    if here not in ctx.bases():
        return
    movable = ctx.one_of_each(ctx.targets(where=ctx.power_at_most(limit), effect=ctx.move))
    if len(ctx.bases()) < 2:
        return
    # "harm" when another player's minion may be chosen (the move's usual reading).
    intent = "help" if all(ctx.controller(m) == ctx.me for m in movable) else "harm"
    minion = yield from ctx.choose_minion(
        movable, f"Move which minion of power {limit} or less (to or from this base)?",
        optional=optional, intent=intent)
    if minion is None:
        return
    if ctx.base_of(minion) != here:
        yield from ctx.move(minion, here)
        return
    dest = yield from ctx.choose_base(_other_bases(ctx, here), "Move it to which base?",
                                      intent=intent, subject=minion)
    if dest is not None:
        yield from ctx.move(minion, dest)


# ------------------------------------------------------------------------------ minions -------
monster_tornado = tornados.minion("Monster Tornado", power=5, text=(
    "Talent: move a minion of power 4 or less (anyone's) from this base to another base, or "
    "from another base to this one."))


def _can_whirl(limit):
    def usable(ctx):
        return len(ctx.bases()) > 1 and bool(ctx.targets(where=ctx.power_at_most(limit),
                                                         effect=ctx.move))
    return usable


@monster_tornado.talent_ability(usable=_can_whirl(4))
def monster_tornado_whirls(ctx):
    # Using the talent is the choice; then a minion must be moved.
    yield from _whirl(ctx, 4, optional=False)


cyclone = tornados.minion("Cyclone", power=4, copies=2, text=(
    "Talent: move this minion to another base."))


@cyclone.talent_ability(usable=lambda ctx: len(ctx.bases()) > 1 and bool(
    ctx.targets(where=lambda m: m == ctx.card, effect=ctx.move)))
def cyclone_travels(ctx):
    dest = yield from ctx.choose_base(_other_bases(ctx, ctx.here), "Move Cyclone to which base?",
                                      intent="help", subject=ctx.card)
    if dest is not None:
        yield from ctx.move(ctx.card, dest)


@tornados.minion("Twister", power=3, copies=3, text=(
    "On play: you may move a minion of power 3 or less (anyone's, this one too) from this base "
    "to another base, or from another base to this one."))
def twister(ctx):
    # IYF clarification: Twister may move itself.
    yield from _whirl(ctx, 3, optional=True)


dust_devil = tornados.minion("Dust Devil", power=2, copies=4, text=(
    "Special: just before another base scores, you may move this minion to it."))


def _devil_can_fly(ctx, scoring):
    return ctx.base_of(ctx.card) != scoring.base and bool(
        ctx.targets(where=lambda m: m == ctx.card, effect=ctx.move))


@dust_devil.special("before_scoring", zone="play", usable=_devil_can_fly,
                    label="Move Dust Devil to the scoring base")
def dust_devil_joins(ctx, scoring):
    yield from ctx.move(ctx.card, scoring.base)


# ------------------------------------------------------------------------------ actions -------
@tornados.action("Carried Away", copies=2, text="Move a minion (anyone's) to another base.")
def carried_away(ctx):
    yield from ctx.choose_and_move(ctx.one_of_each(ctx.targets(effect=ctx.move)),
                                   "Move which minion?")


gone_with_the_wind = tornados.action("Gone with the Wind", special_only=True, text=(
    "Special: play just after a base scores. You may move one of your minions from it to another "
    "base instead of putting it into the discard pile."))


def _yours_blown_away(ctx, scoring):
    return len(ctx.bases()) > 1 and bool(_escapees(ctx, scoring))


def _escapees(ctx, scoring):
    return ctx.one_of_each(ctx.targets(base=scoring.base, controller=ctx.me, effect=ctx.move,
                                       where=lambda m: m not in scoring.instead))


@gone_with_the_wind.special("after_scoring", usable=_yours_blown_away,
                            label="Play Gone with the Wind: move one of your minions away")
def gone_with_the_wind_blows(ctx, scoring):
    # Like First Mate: the minion goes when the base's cards are put away (CR step 7), and never
    # to the base that replaces the scored one (not out yet).
    minion = yield from ctx.choose_minion(_escapees(ctx, scoring),
                                          "Move which of your minions to another base?",
                                          optional=True, intent="help")
    if minion is None:
        return
    dest = yield from ctx.choose_base(_other_bases(ctx, scoring.base), "Move it to which base?",
                                      intent="help", subject=minion)
    scoring.redirect(minion, ("move", dest), by=ctx)


@tornados.action("Not in Kansas", text=(
    "Choose a base: destroy it and every action on it or on its minions, and put the top base "
    "of the base deck in its place. Its minions stay, on the new base."))
def not_in_kansas(ctx):
    uid = yield from ctx.choose_base(ctx.bases(), "Blow which base away?", intent="harm")
    if uid is None:
        return
    # The top base is taken unseen (as Burn It Down's); with no base left anywhere nothing can
    # take its place, and the base stays (our reading: "destroy and replace" is one change).
    new = ctx.top_base()
    if new is None:
        ctx.log("No base is left to take its place (Not in Kansas).")
        return
    # IYF clarification: unlike Burn It Down, the actions on its minions are destroyed too.
    yield from ctx.destroy_base(uid, new, minion_actions=True)


over_the_rainbow = tornados.action("Over the Rainbow", special_only=True, text=(
    "Special: play just before a base scores. Move one of your minions from another base to "
    "the scoring base."))


def _travellers(ctx, scoring):
    return ctx.one_of_each(ctx.targets(controller=ctx.me, effect=ctx.move,
                                       where=lambda m: ctx.base_of(m) != scoring.base))


@over_the_rainbow.special("before_scoring", usable=lambda ctx, scoring: bool(
    _travellers(ctx, scoring)), label="Play Over the Rainbow: move one of your minions to the "
                                      "scoring base")
def over_the_rainbow_lands(ctx, scoring):
    yield from ctx.choose_and_move(_travellers(ctx, scoring), "Move which of your minions to the "
                                   "scoring base?", to=[scoring.base])


picked_up = tornados.action("Picked Up", special_only=True, text=(
    "Special: play just before a base scores. Move a minion (anyone's) from the scoring base to "
    "another base."))


def _on_scoring_base(ctx, scoring):
    if len(ctx.bases()) < 2:
        return []
    return ctx.one_of_each(ctx.targets(base=scoring.base, effect=ctx.move))


@picked_up.special("before_scoring", usable=lambda ctx, scoring: bool(
    _on_scoring_base(ctx, scoring)), label="Play Picked Up: move a minion off the scoring base")
def picked_up_lifts(ctx, scoring):
    yield from ctx.choose_and_move(_on_scoring_base(ctx, scoring),
                                   "Move which minion off the scoring base?")


@tornados.action("Ripped Off", text=(
    "Move an action attached to a base or a minion (anyone's) to another host of the same kind."))
def ripped_off(ctx):
    on_bases = [a for u in ctx.bases() for a in ctx.actions_on_base(u)]
    on_minions = [a for m in ctx.minions() for a in ctx.attached(m)]
    # Only actions that have somewhere to go.
    movable = ([a for a in on_bases if len(ctx.bases()) > 1]
               + [a for a in on_minions if _new_hosts(ctx, a)])
    # Taking an action from where its player put it is aimed at them; where it lands follows
    # what it does to its host (a Poison goes to another player's minion, an Upgrade to yours).
    picked = yield from ctx.choose_actions(movable, "Move which attached action?", intent="harm")
    if not picked:
        return
    action = picked[0]
    lands = ctx.intent_of(action)
    if action in on_bases:
        dest = yield from ctx.choose_base(_other_bases(ctx, ctx.host_of(action)),
                                          "Move it to which base?", intent=lands)
    else:
        dest = yield from ctx.choose_minion(ctx.one_of_each(_new_hosts(ctx, action)),
                                            "Move it to which minion?", intent=lands)
    if dest is not None:
        yield from ctx.transfer(action, dest)


def _new_hosts(ctx, action):
    host = ctx.host_of(action)
    return ctx.targets(where=lambda m: m != host)


@tornados.action("Trade Winds", copies=2, text=(
    "Choose two minions of power 3 or less (anyone's) on different bases and swap their places."))
def trade_winds(ctx):
    # Catalog (AEG): with only one such minion, or all of them on one base, nothing moves.
    small = [m for m in ctx.targets(where=ctx.power_at_most(3), effect=ctx.move)
             if _swap_partners(ctx, m)]
    first = yield from ctx.choose_minion(ctx.one_of_each(small), "Swap which minion?",
                                         intent="harm")
    if first is None:
        return
    second = yield from ctx.choose_minion(ctx.one_of_each(_swap_partners(ctx, first)),
                                          "Swap it with which minion?", intent="harm")
    there, here = ctx.base_of(second), ctx.base_of(first)
    yield from ctx.move(first, there)
    yield from ctx.move(second, here)


# A module function, not a closure inside the ability: compiled (native.py), a generator's
# locals live in a scope object a nested function refers back to, a reference cycle that
# keeps a dropped game alive until the cycle collector runs (test_game_freed.py).
def _swap_partners(ctx, m):
    """Trade Winds: the minions of power 3 or less on another base than `m`'s, movable."""
    return ctx.targets(where=lambda o: ctx.power(o) <= 3 and ctx.base_of(o) != ctx.base_of(m),
                       effect=ctx.move)


@tornados.action("Whirlwinds", text=(
    "Move any number of your minions (none is fine), each to a base other than its own."))
def whirlwinds(ctx):
    yield from ctx.move_your_minions()
