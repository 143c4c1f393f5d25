"""Dinosaurs (Core Set): big minions, power boosts, destruction of the weak."""
from smashup.engine import Faction

dinosaurs = Faction("Dinosaurs", set="core")

# AEG: the blank text box is intentional.
dinosaurs.minion("King Rex", power=7, text="No ability.")



@dinosaurs.minion("Laseratops", power=4, copies=2, text=(
    "On play: you may destroy a minion on this base whose printed power is 2 or less."))
def laseratops(ctx):
    # Current errata: optional, any controller, and the PRINTED power counts (catalog).
    printed = ctx.printed_power_at_most(2)
    yield from ctx.choose_and(
        ctx.destroy,
        ctx.one_of_each(ctx.targets(base=ctx.here, where=printed, effect=ctx.destroy)),
        "Destroy a minion of printed power 2 or less here?", optional=True)


armor_stego = dinosaurs.minion("Armor Stego", power=3, copies=3, text=(
    "Talent: until the start of your next turn, this minion has +2 power during other players' "
    "turns."))


@armor_stego.talent_ability()
def armor_stego_braces(ctx):
    # Current errata: a talent, so the bonus runs only if it was used on your last turn
    # (catalog note); it never counts during your own turn.
    if ctx.add_power(ctx.card, 2, until="start_of_your_next_turn", during="others"):
        ctx.log(f"{ctx.name(ctx.card)} has +2 power during other players' turns until "
                f"{ctx.player_name(ctx.me)}'s next turn.")


war_raptor = dinosaurs.minion("War Raptor", power=2, copies=4, text=(
    "Ongoing: this minion has +1 power for each War Raptor on this base, itself included."))


@war_raptor.modifier(to="itself", local=True)
def war_raptor_pack(ctx, minion):
    # AEG: the bonus exists only on a base (out of play a War Raptor has its printed 2); every
    # War Raptor there counts, whoever controls it.
    if minion != ctx.card:
        return 0
    return len(ctx.minions(base=ctx.here, where=lambda m: ctx.name(m) == "War Raptor"))


@dinosaurs.action("Augmentation", copies=2, text=(
    "A minion in play gets +4 power until the end of your turn."))
def augmentation(ctx):
    # AEG: played on another player's turn, it lasts until the end of your next turn.
    target = yield from ctx.choose_minion(ctx.one_of_each(ctx.targets()),
                                          "Which minion gets +4 power?", intent="help")
    if target is not None:
        ctx.add_power(target, 4, until="end_of_your_turn")


@dinosaurs.action("Howl", copies=2, text=(
    "Each of your minions in play gets +1 power until the end of your turn."))
def howl(ctx):
    # Only the minions in play now: minions played later do not get it (catalog). AEG: played on
    # another player's turn, it lasts until the end of your next turn.
    for m in ctx.targets(controller=ctx.me):
        ctx.add_power(m, 1, until="end_of_your_turn")


# A module function, not a closure inside the ability: compiled (native.py), a generator's
# locals live in a scope object a nested function refers back to, a reference cycle that
# keeps a dropped game alive until the cycle collector runs (test_game_freed.py).
def _prey_of(ctx, mine):
    """Natural Selection: the minions on `mine`'s base with less power than it, destroyable."""
    return ctx.targets(base=ctx.base_of(mine),
                       where=lambda m: m != mine and ctx.power(m) < ctx.power(mine),
                       effect=ctx.destroy)


@dinosaurs.action("Natural Selection", text=(
    "Choose one of your minions on a base. Destroy a minion there with less power than it."))
def natural_selection(ctx):
    # Only a minion of yours that has some prey can be chosen (our reading: the choice must let
    # the destruction happen); with none, the action does nothing.
    hunters = [m for m in ctx.minions(controller=ctx.me) if _prey_of(ctx, m)]
    mine = yield from ctx.choose_minion(ctx.one_of_each(hunters), "Choose one of your minions",
                                        intent="help")
    if mine is None:
        return
    yield from ctx.choose_and(ctx.destroy, ctx.one_of_each(_prey_of(ctx, mine)),
                              f"Destroy which minion with less power than {ctx.name(mine)}?")


@dinosaurs.action("Rampage", no_effect_in_big_base="breakpoint", text=(
    "Choose one of your minions on a base. That base's breakpoint is lowered by that minion's "
    "power until the end of the turn."))
def rampage(ctx):
    mine = yield from ctx.choose_minion(ctx.one_of_each(ctx.minions(controller=ctx.me)),
                                        "Lower the breakpoint by the power of which minion?",
                                        intent="help")
    if mine is None:
        return
    # AEG: the amount is the power when Rampage is played; later changes do not alter it.
    ctx.change_breakpoint(ctx.base_of(mine), -ctx.power(mine))


@dinosaurs.action("Survival of the Fittest", text=(
    "On each base where some minion has more power than the weakest minion there, destroy one "
    "of the weakest minions there."))
def survival_of_the_fittest(ctx):
    # Base by base in board order, each read when its turn comes (an earlier destruction may
    # change powers elsewhere, e.g. a Microbot Alpha).
    for uid in ctx.bases():
        powers = [ctx.power(m) for m in ctx.minions(base=uid)]
        if not powers or min(powers) == max(powers):
            continue
        low = min(powers)
        # Everyone's minions, yours too (catalog). A weakest minion this card may not destroy is
        # skipped; if every weakest one is, nothing here is destroyed (our reading: the card
        # names the weakest, not the next weakest).
        weakest = ctx.targets(base=uid, where=lambda m, low=low: ctx.power(m) == low,
                              effect=ctx.destroy)
        yield from ctx.choose_and(ctx.destroy, ctx.one_of_each(weakest),
                                  f"Destroy which weakest minion on {ctx.base_name(uid)}?")


tooth_and_claw = dinosaurs.action("Tooth and Claw... and Guns", attach="minion", intent="help",
                                  text=(
    "Play on a minion. Ongoing: it is not affected by cards that other players control."))


@tooth_and_claw.protection("affect", from_="other_players_cards", local=True)
def tooth_and_claw_guards(ctx, target):
    # Current errata: a lasting protection from every card other players control (minions and
    # actions alike); the action stays attached (catalog). Bases are nobody's cards.
    return target == ctx.host_of(ctx.card)


upgrade = dinosaurs.action("Upgrade", attach="minion", intent="help", text=(
    "Play on a minion. Ongoing: it has +2 power."))


@upgrade.modifier(to="host", local=True)
def upgrade_boost(ctx, minion):
    return 2 if ctx.host_of(ctx.card) == minion else 0


wildlife_preserve = dinosaurs.action("Wildlife Preserve", attach="base", intent="help", text=(
    "Play on a base. Ongoing: your minions here are not affected by other players' actions."))


def _sheltered(ctx, m):
    return ctx.base_of(m) == ctx.here and ctx.controller(m) == ctx.me


@wildlife_preserve.on_played
def wildlife_preserve_clears(ctx):
    # AEG: other players' actions already on your minions here are discarded when it is played
    # (a discard from play, not a destroy).
    for m in ctx.minions(base=ctx.here, controller=ctx.me):
        for a in ctx.attached(m):
            if ctx.controller(a) != ctx.me:
                yield from ctx.discard_from_play(a)


@wildlife_preserve.protection("affect", from_="other_players_cards", only="actions",
                                   local=True)
def wildlife_preserve_shelters(ctx, target):
    return ctx.is_minion(target) and ctx.in_play(target) and _sheltered(ctx, target)
