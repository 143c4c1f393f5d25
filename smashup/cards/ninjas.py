"""Ninjas (Core Set): destruction, plays before scoring, protection."""
from smashup.engine import MINION, Faction

ninjas = Faction("Ninjas", set="core")


@ninjas.minion("Ninja Master", power=5, text="On play: you may destroy a minion on this base.")
def ninja_master(ctx):
    yield from ctx.choose_and(ctx.destroy, ctx.targets(base=ctx.here),
                              "Destroy a minion on this base?", optional=True)


@ninjas.minion("Tiger Assassin", power=4, copies=2, text=(
    "On play: you may destroy a minion of power 3 or less on this base."))
def tiger_assassin(ctx):
    yield from ctx.choose_and(ctx.destroy, ctx.targets(base=ctx.here, where=ctx.power_at_most(3)),
                              "Destroy a minion of power 3 or less here?", optional=True)


shinobi = ninjas.minion("Shinobi", power=3, copies=3, text=(
    "Special: before a base scores, you may play this minion there. Only one Shinobi per "
    "scoring base."))


@shinobi.special("before_scoring", usable=lambda ctx, scoring: "shinobi" not in scoring.used,
                 label="Play Shinobi on the scoring base")
def shinobi_play(ctx, scoring):
    # Read as once per scoring base (the wikis' reading).
    scoring.used.add("shinobi")
    yield from ctx.play_minion(ctx.card, scoring.base)


acolyte = ninjas.minion("Ninja Acolyte", power=2, copies=4, text=(
    "Talent: if you have not played a minion this turn, return this minion to your hand and play "
    "an extra minion on this base at once."))


def _no_minion_played_yet(ctx):
    # AEG: minions played at the start of the turn do not count: only Play Cards phase plays do.
    return not ctx.plays(seat=ctx.me, kind=MINION, phase="play")


@acolyte.talent_ability(usable=_no_minion_played_yet)
def acolyte_talent(ctx):
    here = ctx.here
    yield from ctx.return_to_hand(ctx.card)
    yield from ctx.play_extra_now(MINION, base=here, optional=False)


assassination = ninjas.action("Assassination", attach="minion", intent="harm", text=(
    "Play on a minion. Ongoing: destroy that minion at the end of the turn."))


@assassination.trigger("turn_end")
def assassination_strikes(ctx, event):
    # A host that came under another player's Smoke Bomb after this was attached is no longer
    # affected by it (Smoke Bomb: "not affected by other players' actions"): `destroy` checks.
    yield from ctx.destroy(ctx.host_of(ctx.card))


@ninjas.action("Disguise", text=(
    "Choose one or two of your minions on one base. Play as many extra minions on that base, then "
    "return the chosen ones to your hand."))
def disguise(ctx):
    in_hand = [c for c in ctx.hand() if ctx.is_minion(c)]
    bases = ctx.bases(lambda u: ctx.targets(base=u, controller=ctx.me))
    if not in_hand or not bases:
        return  # both parts happen or neither
    uid = yield from ctx.choose_base(bases, "Disguise minions on which base?", intent="help")
    mine = ctx.targets(base=uid, controller=ctx.me)
    # The chosen ones leave the board (for the extras): "harm", so a bot gives up its least.
    chosen = yield from ctx.choose_minions(mine, "Swap out which minions (one or two)?", 1,
                                           min(2, len(mine), len(in_hand)), intent="harm")
    marks = [ctx.in_play_mark(m) for m in chosen]
    # The card's order: the new minions come in first, then the chosen ones go back to hand.
    for _ in chosen:
        yield from ctx.play_extra_now(MINION, base=uid, optional=False)
    # A chosen minion that left play meanwhile (an extra's on-play returned it, e.g. Supreme
    # Overlord) and was played again as the next extra is a new card in play, not the one chosen:
    # it stays (CR "Void Where Prohibited": an effect ends when its card leaves play).
    for mark in marks:
        if ctx.still_in_play(mark):
            yield from ctx.return_to_hand(mark[0])


hidden_ninja = ninjas.action("Hidden Ninja", special_only=True, text=(
    "Special: before a base scores, play this action, then play a minion on that base as an extra "
    "minion."))


@hidden_ninja.special("before_scoring", label="Play Hidden Ninja: an extra minion on the scoring base")
def hidden_ninja_play(ctx, scoring):
    yield from ctx.play_extra_now(MINION, base=scoring.base)


infiltrate = ninjas.action("Infiltrate", copies=2, attach="base", intent="harm", text=(
    "Play on a base. You may destroy another action on this base. Talent: destroy this card to "
    "cancel this base's ability until the start of your next turn."))


@infiltrate.on_played
def infiltrate_played(ctx):
    others = [a for a in ctx.actions_on_base(ctx.here) if a != ctx.card]
    chosen = yield from ctx.choose_cards(others, "Destroy another action on this base?", 0, 1,
                                         intent="harm")
    for a in chosen:
        yield from ctx.destroy_action(a)


@infiltrate.talent_ability()
def infiltrate_talent(ctx):
    here = ctx.here
    yield from ctx.destroy_action(ctx.card)
    ctx.cancel_base_until_my_next_turn(here)
    ctx.log(f"{ctx.base_name(here)}'s ability is cancelled until "
            f"{ctx.player_name(ctx.me)}'s next turn.")


poison = ninjas.action("Poison", attach="minion", intent="harm", text=(
    "Play on a minion. Destroy any number of actions on it. Ongoing: it has -4 power."))


@poison.on_played
def poison_played(ctx):
    host = ctx.host_of(ctx.card)
    others = [a for a in ctx.attached(host) if a != ctx.card]
    chosen = yield from ctx.choose_cards(others, "Destroy which actions on that minion?", 0,
                                         len(others), intent="harm")
    for a in chosen:
        yield from ctx.destroy_action(a)


@poison.modifier(to="host", local=True)
def poison_weakens(ctx, minion):
    return -4 if ctx.host_of(ctx.card) == minion else 0


@ninjas.action("Seeing Stars", copies=2, text="Destroy a minion of power 3 or less.")
def seeing_stars(ctx):
    yield from ctx.choose_and(ctx.destroy, ctx.targets(where=ctx.power_at_most(3)),
                              "Destroy which minion of power 3 or less?")


smoke_bomb = ninjas.action(
    "Smoke Bomb", attach="minion", intent="help",
    attach_filter=lambda ctx, m: ctx.controller(m) == ctx.me,
    text="Play on one of your minions. Ongoing: it is not affected by other players' actions.")


@smoke_bomb.protection("affect", from_="other_players_cards", only="actions", local=True)
def smoke_bomb_hides(ctx, target):
    return target == ctx.host_of(ctx.card)


@ninjas.action("Way of Deception", text="Move one of your minions to another base.")
def way_of_deception(ctx):
    yield from ctx.choose_and_move(ctx.targets(controller=ctx.me), "Move which minion?")
