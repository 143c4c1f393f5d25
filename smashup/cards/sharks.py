"""Sharks (It's Your Fault!): destroying minions, and growing from every destruction.

Rulings (catalog notes, the IYF rulebook's clarifications): Hammerhead gets one counter per minion
destroyed on its base, and Chum's host one per minion destroyed anywhere; a destruction without
"may" is mandatory when a minion qualifies, even one of yours (Great White, Air Jaws, Torn Apart,
Freakin' Laser Beam); Mako answers a destruction you caused, after the whole card resolved, so a
Mako drawn by Torn Apart answers Torn Apart's own destruction (AEG)."""
from smashup.engine import MINION, Faction

sharks = Faction("Sharks", set="iyf")


def _is_minion_destroyed(ctx, event) -> bool:
    # A `destroyed` event names actions destroyed in play too; these cards count minions only.
    return ctx.is_minion(event.card)


def _move_then_bite(ctx, mover, most):
    """Move `mover` to another base of your choice, then destroy a minion of power `most` or less
    there (Great White, Air Jaws): mandatory if one qualifies, even one of yours. Nothing is
    destroyed if the move did not happen (a protection kept it where it was): the bite is "on
    that base", the one it went to."""
    dest = yield from ctx.choose_base([u for u in ctx.bases() if u != ctx.base_of(mover)],
                                      f"Move {ctx.name(mover)} to which base?", intent="help",
                                      subject=mover)
    if dest is None or not (yield from ctx.move(mover, dest)):
        return
    yield from ctx.choose_and(ctx.destroy, ctx.one_of_each(
        ctx.targets(base=dest, where=ctx.power_at_most(most))),
                              f"Destroy a minion of power {most} or less there.")


# ------------------------------------------------------------------------------ minions -------
megalodon = sharks.minion("Megalodon", power=5, text=(
    "On play: you may destroy a minion of power 4 or less here. Special: just before this "
    "minion's base scores, you may destroy a minion of power 3 or less there."))


@megalodon.on_played
def megalodon_feeds(ctx):
    yield from ctx.choose_and(ctx.destroy, ctx.one_of_each(
        ctx.targets(base=ctx.here, where=ctx.power_at_most(4))),
                              "Destroy a minion of power 4 or less here?", optional=True)


def _megalodon_can_bite(ctx, scoring):
    return ctx.base_of(ctx.card) == scoring.base and bool(
        ctx.targets(base=scoring.base, where=ctx.power_at_most(3), effect=ctx.destroy))


@megalodon.special("before_scoring", zone="play", usable=_megalodon_can_bite,
                   label="Megalodon: destroy a minion of power 3 or less on the scoring base")
def megalodon_bites(ctx, scoring):
    # The "may" was the yes/no of the Special; having said yes, a minion is chosen.
    yield from ctx.choose_and(ctx.destroy, ctx.one_of_each(
        ctx.targets(base=scoring.base, where=ctx.power_at_most(3))),
                              "Destroy which minion of power 3 or less?")


great_white = sharks.minion("Great White", power=4, copies=2, text=(
    "Talent: move this minion to another base, then destroy a minion of power 2 or less there "
    "(one must be destroyed if any can, even one of yours)."))


@great_white.talent_ability(usable=lambda ctx: len(ctx.bases()) > 1 and bool(
    ctx.targets(where=lambda m: m == ctx.card, effect=ctx.move)))
def great_white_hunts(ctx):
    yield from _move_then_bite(ctx, ctx.card, 2)


hammerhead = sharks.minion("Hammerhead", power=3, copies=3, text=(
    "Ongoing: after a minion on this base is destroyed, put a +1 power counter on this minion."))


@hammerhead.trigger("destroyed", applies=lambda ctx, e: _is_minion_destroyed(ctx, e)
                    and e.card != ctx.card and e.base == ctx.here)
def hammerhead_grows(ctx, event):
    # IYF clarification: several destroyed at once give one counter each (one event each).
    ctx.add_counters(ctx.card, 1)


mako = sharks.minion("Mako", power=2, copies=4, text=(
    "Special: after you destroy a minion (on any base), you may play this minion from your hand "
    "on that base as an extra minion."))


def _mako_can_follow(ctx, event):
    # "You destroy": the player whose card's ability destroyed it (the event's by_player).
    return (event.by_player == ctx.me and _is_minion_destroyed(ctx, event)
            and event.base in ctx.bases() and ctx.can_play(ctx.card, event.base))


@mako.special("destroyed", usable=_mako_can_follow,
              label="Play Mako on the base where you destroyed a minion")
def mako_follows_the_blood(ctx, event):
    yield from ctx.play_minion(ctx.card, event.base)


# ------------------------------------------------------------------------------ actions -------
@sharks.action("Air Jaws", text=(
    "Move one of your minions to another base, then destroy a minion of power 3 or less there "
    "(one must be destroyed if any can, even one of yours)."))
def air_jaws(ctx):
    movers = ctx.one_of_each(ctx.targets(controller=ctx.me, effect=ctx.move))
    mover = yield from ctx.choose_minion(movers, "Move which of your minions?", intent="help")
    if mover is not None:
        yield from _move_then_bite(ctx, mover, 3)


blood_in_the_water = sharks.action("Blood in the Water", copies=2, attach="base", intent="harm",
                                   text=(
    "Play on a base. Ongoing: after a minion here is destroyed, you may play a minion of power 3 "
    "or less from your hand here as an extra minion."))


@blood_in_the_water.trigger("destroyed", applies=lambda ctx, e: _is_minion_destroyed(ctx, e)
                            and e.base == ctx.here)
def blood_in_the_water_draws_more(ctx, event):
    yield from ctx.play_extra_now(MINION, max_power=3, base=ctx.here)


chum = sharks.action("Chum", attach="minion", intent="help", text=(
    "Play on a minion. Ongoing: after any minion is destroyed, put a +1 power counter on that "
    "minion."))


@chum.trigger("destroyed", applies=lambda ctx, e: _is_minion_destroyed(ctx, e)
              and e.card != ctx.host_of(ctx.card))
def chum_feeds(ctx, event):
    # IYF clarification: the destroyed minion may be on any base.
    ctx.add_counters(ctx.host_of(ctx.card), 1)


dangerous_waters = sharks.action("Dangerous Waters", attach="base", intent="harm", text=(
    "Play on a base. Talent: a minion here (anyone's) gets -2 power until the end of the turn."))


@dangerous_waters.talent_ability(usable=lambda ctx: bool(ctx.minions(base=ctx.here)))
def dangerous_waters_churn(ctx):
    minion = yield from ctx.choose_minion(ctx.one_of_each(ctx.targets(base=ctx.here)),
                                          "Which minion here gets -2 power?", intent="harm")
    if minion is not None:
        ctx.add_power(minion, -2)


@sharks.action("Feeding Frenzy", text=(
    "Choose a base. Destroy any number of minions of power 2 or less there (any player's)."))
def feeding_frenzy(ctx):
    uid = yield from ctx.choose_base(ctx.bases(), "Start the frenzy on which base?",
                                     intent="harm")
    if uid is None:
        return
    # The victims are chosen first, then destroyed (one resolution: the reactions to the
    # destructions come after, so no power changes in between).
    prey, chosen = ctx.targets(base=uid, where=ctx.power_at_most(2), effect=ctx.destroy), []
    while prey:
        minion = yield from ctx.choose_minion(
            ctx.one_of_each(prey), f"Destroy which minion? ({len(chosen)} chosen so far)",
            optional=True, intent="harm")
        if minion is None:
            break
        chosen.append(minion)
        prey.remove(minion)
    for minion in chosen:
        yield from ctx.destroy(minion)


def _laser_targets(ctx, shooter):
    top = ctx.power(shooter)
    return ctx.targets(base=ctx.base_of(shooter), effect=ctx.destroy,
                       where=lambda m: m != shooter and ctx.power(m) <= top)


@sharks.action("Freakin' Laser Beam", text=(
    "Choose one of your minions. Destroy another minion on its base with power equal to or less "
    "than the chosen one's."))
def freakin_laser_beam(ctx):
    # Catalog doubt: "another" minion, never the chosen one. Only a minion that has a target may be
    # chosen (the destruction is mandatory, so a shot that could hit must hit).
    shooters = [m for m in ctx.minions(controller=ctx.me) if _laser_targets(ctx, m)]
    shooter = yield from ctx.choose_minion(ctx.one_of_each(shooters),
                                           "Which of your minions fires the laser?", intent="help")
    if shooter is not None:
        yield from ctx.choose_and(ctx.destroy, ctx.one_of_each(_laser_targets(ctx, shooter)),
                                  f"Destroy which minion of power {ctx.power(shooter)} or less?")


@sharks.action("Torn Apart", text=(
    "Destroy a minion of power 3 or less (any base, any player's), then draw a card."))
def torn_apart(ctx):
    yield from ctx.choose_and(ctx.destroy, ctx.one_of_each(ctx.targets(where=ctx.power_at_most(3))),
                              "Destroy which minion of power 3 or less?")
    ctx.draw(ctx.me, 1)


week_of_sharks = sharks.action("Week of Sharks", copies=2, attach="base", intent="help", text=(
    "Play on a base. Ongoing: at the end of your turn, if you have a minion here, draw a card. "
    "Only one Week of Sharks draws each turn."))


def _week_of_sharks_applies(ctx, event):
    return (event.player == ctx.me and not ctx.flag("week_of_sharks", ctx.me)
            and bool(ctx.minions(base=ctx.here, controller=ctx.me)))


@week_of_sharks.trigger("turn_end", applies=_week_of_sharks_applies)
def week_of_sharks_feast(ctx, event):
    # Catalog doubt: an end-of-turn draw after the Draw 2 Cards phase. One flag for every copy.
    ctx.set_flag("week_of_sharks", ctx.me)
    ctx.draw(ctx.me, 1)
