"""Pirates (Core Set): moving minions (theirs and yours), destroying the small ones."""
from smashup.engine import Faction

pirates = Faction("Pirates", set="core")


def _other_bases(ctx, m):
    here = ctx.base_of(m)
    return ctx.bases(lambda u: u != here)


# ------------------------------------------------------------------------------- minions ----
pirate_king = pirates.minion("Pirate King", power=5, text=(
    "Special: before a base scores, you may move this minion from its current base to the "
    "scoring base."))


def _king_can_sail(ctx, scoring):
    # Not from the scoring base itself, and only if the King may be moved at all: a King that a
    # protection keeps still (another player's Tooth and Claw... and Guns on it) is not offered,
    # or its Special would do nothing and could be used again and again.
    return ctx.base_of(ctx.card) != scoring.base and bool(
        ctx.targets(where=lambda m: m == ctx.card, effect=ctx.move))


@pirate_king.special("before_scoring", zone="play", usable=_king_can_sail,
                     label="Move Pirate King to the scoring base")
def pirate_king_joins(ctx, scoring):
    yield from ctx.move(ctx.card, scoring.base)


buccaneer = pirates.minion("Buccaneer", power=4, copies=2, text=(
    "Ongoing: once per turn, if this minion would be destroyed, you may move it to another base "
    "instead (it is then not destroyed)."))


@buccaneer.replacement("destroy", applies=lambda ctx, minion: minion == ctx.card
                       and not ctx.flag(("buccaneer", ctx.card))
                       and len(ctx.bases()) > 1)
def buccaneer_escapes(ctx, minion):
    # Current errata: once per turn and optional (the original moved it every time, which allowed
    # endless loops). Declining does not use up the turn's escape (our reading: nothing happened).
    uid = yield from ctx.choose_base(
        _other_bases(ctx, minion), "Buccaneer would be destroyed: move it to another base "
        "instead?", optional=True, intent="help", subject=minion)
    if uid is None:
        return False
    ctx.set_flag(("buccaneer", ctx.card))
    # A move that cannot happen (a minion that cannot be moved) leaves the destruction to happen.
    return (yield from ctx.move(minion, uid))


@pirates.minion("Saucy Wench", power=3, copies=3, text=(
    "On play: you may destroy one minion of power 2 or less on this base (any controller)."))
def saucy_wench(ctx):
    # AEG's current name is Cut Lass (a rename only).
    # A minion that cannot be destroyed (Warbot) is no choice (targets(effect=...)).
    yield from ctx.choose_and(
        ctx.destroy,
        ctx.one_of_each(ctx.targets(base=ctx.here, where=lambda m: ctx.power(m) <= 2,
                                    effect=ctx.destroy)),
        "Destroy a minion of power 2 or less here?", optional=True)


first_mate = pirates.minion("First Mate", power=2, copies=4, text=(
    "Special: after the base this minion is on has scored, you may move it to another base "
    "instead of putting it into the discard pile."))


def _first_mate_usable(ctx, scoring):
    if ctx.base_of(ctx.card) != scoring.base or ctx.card in scoring.instead:
        return False
    if not ctx.bases(lambda u: u != scoring.base):
        return False
    # Alike First Mates of yours on the scoring base are one option: the first of them is offered,
    # the next once it has sailed.
    alike = ctx.one_of_each(ctx.minions(
        base=scoring.base, controller=ctx.me,
        where=lambda m: ctx.name(m) == ctx.name(ctx.card) and m not in scoring.instead))
    return ctx.card in alike


@first_mate.special("after_scoring", zone="play", usable=_first_mate_usable,
                    label="Move First Mate to another base instead of the discard pile")
def first_mate_sails(ctx, scoring):
    # AEG: every time its base scores; never to the base that replaces the scored one (the new
    # base is not out yet). It moves when the base's cards are put away (CR step 7).
    uid = yield from ctx.choose_base(ctx.bases(lambda u: u != scoring.base),
                                     "Move First Mate to which base?", intent="help",
                                     subject=ctx.card)
    scoring.redirect(ctx.card, ("move", uid), by=ctx)


# ------------------------------------------------------------------------------- actions ----
@pirates.action("Broadside", copies=2, text=(
    "Choose a base where you have at least one minion, and choose one player (any player, you "
    "included). Destroy every minion of power 2 or less that player controls on that base."))
def broadside(ctx):
    bases = ctx.bases(lambda u: ctx.minions(base=u, controller=ctx.me))
    uid = yield from ctx.choose_base(bases, "Broadside on which base (one with a minion of "
                                            "yours)?", intent="harm")
    if uid is None:
        return
    seat = yield from ctx.choose_player(ctx.players_from_current(),
                                        "Destroy the minions of power 2 or less of which player?",
                                        intent="harm")
    # The minions are fixed first, then destroyed (their reactions come after the card).
    for m in ctx.targets(base=uid, controller=seat, where=lambda m: ctx.power(m) <= 2,
                         effect=ctx.destroy):
        yield from ctx.destroy(m)


@pirates.action("Cannon", text=(
    "Destroy up to two minions in play (any bases, any controllers), each of power 2 or less."))
def cannon(ctx):
    # One at a time: alike copies are one option each time, and two of them can still both go.
    for shot in ("first", "second"):
        weak = ctx.one_of_each(ctx.targets(where=lambda m: ctx.power(m) <= 2, effect=ctx.destroy))
        if (yield from ctx.choose_and(ctx.destroy, weak, f"Destroy a minion of power 2 or less "
                                                         f"({shot} shot)?", optional=True)) is None:
            return


@pirates.action("Dinghy", copies=2, text=(
    "Move up to two of your minions, each to a base other than its current one (they may go to "
    "different bases)."))
def dinghy(ctx):
    yield from ctx.move_your_minions(limit=2)


full_sail = pirates.action("Full Sail", text=(
    "Move any number of your minions, each to a base other than its current one (destinations "
    "may differ). Special: you may also play this card before a base scores."))


@full_sail.on_played
def full_sail_played(ctx):
    yield from ctx.move_your_minions()


@full_sail.special("before_scoring", label="Play Full Sail: move any number of your minions")
def full_sail_before_scoring(ctx, scoring):
    # Rulebook example: minions that sail away before scoring do not stop the base from scoring
    # (it was ready; the engine goes on with it).
    yield from ctx.move_your_minions()


@pirates.action("Powderkeg", text=(
    "Choose one of your minions. Destroy it and every other minion on its base (all controllers) "
    "whose power is equal to or less than its power."))
def powderkeg(ctx):
    # "help": the stronger the keg, the more it takes with it.
    keg = yield from ctx.choose_minion(ctx.one_of_each(ctx.targets(controller=ctx.me)),
                                       "Blow up which of your minions?", intent="help")
    if keg is None:
        return
    # Power and victims are fixed when it blows, before anything is destroyed.
    power = ctx.power(keg)
    victims = ctx.targets(base=ctx.base_of(keg),
                          where=lambda m: m != keg and ctx.power(m) <= power, effect=ctx.destroy)
    # AEG: if the chosen minion cannot be destroyed, the others are still destroyed.
    yield from ctx.destroy(keg)
    for m in victims:
        yield from ctx.destroy(m)


@pirates.action("Sea Dogs", text=(
    "Name a faction. Move all minions of that faction controlled by other players from one base "
    "to one other base (you choose both bases)."))
def sea_dogs(ctx):
    faction = yield from ctx.name_faction("Name a faction: its minions of other players move",
                                          intent="harm")
    sources = ctx.bases(lambda u: _theirs(ctx, u, faction))
    if not sources or len(ctx.bases()) < 2:
        ctx.log(f"No minion of the {faction} can be moved (Sea Dogs).")
        return
    src = yield from ctx.choose_base(sources, f"Move the {faction} minions from which base?",
                                     intent="harm")
    dest = yield from ctx.choose_base(ctx.bases(lambda u: u != src),
                                      f"Move the {faction} minions to which base?", intent="harm",
                                      subject=_theirs(ctx, src, faction)[0])
    for m in _theirs(ctx, src, faction):
        yield from ctx.move(m, dest)


# A module function, not a closure inside the ability: compiled (native.py), a generator's
# locals live in a scope object a nested function refers back to, a reference cycle that
# keeps a dropped game alive until the cycle collector runs (test_game_freed.py).
def _theirs(ctx, u, faction):
    """Sea Dogs: the minions of `faction` on base `u` that other players control and it may move."""
    return ctx.targets(base=u, where=lambda m: ctx.controller(m) != ctx.me
                       and ctx.faction_of(m) == faction, effect=ctx.move)


@pirates.action("Shanghai", text="Move one minion controlled by another player to another base.")
def shanghai(ctx):
    yield from ctx.choose_and_move(
        ctx.one_of_each(ctx.targets(where=lambda m: ctx.controller(m) != ctx.me)),
        "Move which minion of another player?")


@pirates.action("Swashbuckling", text=(
    "Each of your minions in play gets +1 power until the end of the turn (minions played later "
    "are not affected)."))
def swashbuckling(ctx):
    for m in ctx.minions(controller=ctx.me):
        ctx.add_power(m, 1)
