"""The bases of the Core Set.

Where a base says who acts ("the winner may", "each player", "that player may"), that player does
it (`Ctx.performed_by`; issue 24: every ability's effects are done by a player): they are asked,
the events name them as who did it (Mako, Shark Reef, Imperial Dragon, Hatchling read it) and the
protections "by other players" read them (Expanded Power, Secret Base, Converted Cave). A move or
an event of step 7 that a base's "instead" makes is that player's too (`Scoring.redirect(by=)`)."""
from smashup.engine import EXACT_CORNERS, MINION, base

# ---------------------------------------------------------------------- Aliens ---------------
homeworld = base("The Homeworld", "core", 23, (4, 2, 1), faction="Aliens", text=(
    "Once per turn, after a player plays a minion here, that player may play an extra minion of "
    "power 2 or less on any base."))


@homeworld.trigger("minion_played", applies=lambda ctx, e: e.base == ctx.here)
def homeworld_extra(ctx, event):
    # Errata: once per turn, counted per player (our reading, noted in the catalog), and per
    # base: in Big Base each side has the ability separately ("it works separately for each
    # side", rules 003), so each side gives its own extra (resolution 3; a record made before
    # counted it across the whole board).
    key = ("homeworld", ctx.here) if ctx.resolution >= EXACT_CORNERS else "homeworld"
    if ctx.flag(key, event.player):
        return
    ctx.set_flag(key, event.player)
    yield from ctx.grant_extra(MINION, seat=event.player, max_power=2)


mothership = base("The Mothership", "core", 20, (4, 2, 1), faction="Aliens", text=(
    "After this base scores, the winner may return one of their minions of power 3 or less from "
    "here to their hand."))


@mothership.hook("after_scoring")
def mothership_rescue(ctx, scoring):
    for seat in ctx.in_turn_order(scoring.winners()):
        winner = ctx.performed_by(seat)  # "the winner may return": the winner does it
        mine = winner.targets(base=ctx.here, controller=seat,
                              where=lambda m: ctx.power(m) <= 3 and m not in scoring.instead)
        target = yield from winner.choose_minion(
            mine, "Return one of your minions of power 3 or less to your hand?", optional=True,
            intent="help")
        if target is not None:
            # The base says "return": announced as a return when the cards are put away.
            scoring.redirect(target, "hand", term="returned", by=winner)


# ---------------------------------------------------------------------- Ninjas ---------------
dojo = base("Ninja Dojo", "core", 18, (2, 3, 2), faction="Ninjas", text=(
    "After this base scores, the winner may destroy any one minion in play."))


@dojo.hook("after_scoring")
def dojo_strike(ctx, scoring):
    for seat in ctx.in_turn_order(scoring.winners()):
        winner = ctx.performed_by(seat)  # "the winner may destroy": the winner destroys
        yield from winner.choose_and(winner.destroy, winner.targets(), "Destroy a minion?",
                                     optional=True)


goju = base("Temple of Goju", "core", 18, (2, 3, 2), faction="Ninjas", text=(
    "After this base scores, each player puts their highest-power minion here on the bottom of "
    "its owner's deck instead of the discard pile."))


@goju.hook("after_scoring")
def goju_sends_back(ctx, scoring):
    for seat in ctx.players_from_current():
        player = ctx.performed_by(seat)  # "each player puts": each player does it
        # Only minions still bound for the discard pile: one that an earlier "instead" (a Scout
        # to the hand) already sends elsewhere is not replaced again (the first "instead" wins).
        mine = ctx.minions(base=ctx.here, controller=seat,
                           where=lambda m: m not in scoring.instead)
        if not mine:
            continue
        top = max(ctx.power(m) for m in mine)
        strongest = [m for m in mine if ctx.power(m) == top]
        # A tie for the strongest: that player chooses (our reading; no ruling found).
        target = yield from player.choose_minion(
            strongest, "Which of your strongest minions goes to the bottom of its deck?",
            intent="harm")
        scoring.redirect(target, "deck_bottom", by=player)


# ---------------------------------------------------------------------- Dinosaurs ------------
base("Jungle Oasis", "core", 12, (2, 0, 0), faction="Dinosaurs", text="No ability.")

tar_pits = base("Tar Pits", "core", 16, (4, 3, 2), faction="Dinosaurs", text=(
    "The first time each turn a minion here would be destroyed, it goes to the bottom of its "
    "owner's deck instead."))


@tar_pits.replacement("destroy", applies=lambda ctx, minion: ctx.base_of(minion) == ctx.here
                      and not ctx.flag(("tar_pits", ctx.here)))
def tar_pits_swallow(ctx, minion):
    # Errata: a replacement, so the minion is not destroyed and "after destroyed" abilities do not
    # happen (catalog doubt); the second destruction here in the same turn happens normally.
    ctx.set_flag(("tar_pits", ctx.here))
    yield from ctx.place_on_deck_bottom(minion)
    return True


# ---------------------------------------------------------------------- Pirates --------------
grey_opal = base("The Grey Opal", "core", 17, (3, 1, 1), faction="Pirates", text=(
    "After this base scores, each player other than the winner may move one of their minions "
    "from here to another base instead of the discard pile."))


@grey_opal.hook("after_scoring")
def grey_opal_escape(ctx, scoring):
    others = ctx.bases(lambda u: u != ctx.here)
    if not others:
        return
    for seat in ctx.players_from_current():
        if seat in scoring.winners():  # tied winners are all winners: none of them moves
            continue
        player = ctx.performed_by(seat)  # "each player ... may move": that player moves it
        mine = player.targets(base=ctx.here, controller=seat,
                              where=lambda m: m not in scoring.instead)
        target = yield from player.choose_minion(
            mine, "Move one of your minions to another base instead of the discard pile?",
            optional=True, intent="help")
        if target is None:
            continue
        to = yield from player.choose_base(others, f"Move {ctx.name(target)} to which base?",
                                           intent="help", subject=target)
        # It moves when the base's cards are put away (CR step 7), like First Mate.
        scoring.redirect(target, ("move", to), by=player)


tortuga = base("Tortuga", "core", 21, (4, 3, 2), faction="Pirates", text=(
    "After this base scores and is replaced, the runner-up may move one of their minions on "
    "another base onto the new base."))


@tortuga.hook("after_replaced")
def tortuga_recruits(ctx, scoring, new):
    # The new base is out before the runner-up decides (CR step 9, "probably").
    for seat in ctx.in_turn_order(scoring.runners_up()):
        runner_up = ctx.performed_by(seat)  # "the runner-up may move": the runner-up moves it
        theirs = runner_up.targets(controller=seat, where=lambda m: ctx.base_of(m) != new)
        target = yield from runner_up.choose_minion(
            theirs, f"Move one of your minions to {ctx.base_name(new)}?", optional=True,
            intent="help")
        if target is not None:
            yield from runner_up.move(target, new)


# ---------------------------------------------------------------------- Robots ---------------
factory = base("Factory 436-1337", "core", 25, (2, 2, 1), faction="Robots", text=(
    "When this base scores, the winner gains 1 more VP for every 5 power they have here."))


@factory.hook("when_scoring")
def factory_bonus(ctx, scoring):
    # Counted on the power that ranked the players (the same moment the VP are awarded).
    for seat in ctx.in_turn_order(scoring.winners()):
        bonus = scoring.powers.get(seat, 0) // 5
        if bonus:
            ctx.gain_vp(seat, bonus)


central_brain = base("The Central Brain", "core", 19, (4, 2, 1), faction="Robots", text=(
    "Ongoing: every minion here has +1 power."))


@central_brain.modifier(to="here", local=True)
def central_brain_boost(ctx, minion):
    return 1 if ctx.base_of(minion) == ctx.here else 0


# ---------------------------------------------------------------------- Tricksters -----------
cave = base("Cave of Shinies", "core", 23, (4, 2, 1), faction="Tricksters", text=(
    "After a minion here is destroyed, its owner gains 1 VP."))


@cave.trigger("destroyed", applies=lambda ctx, e: e.base == ctx.here and ctx.is_minion(e.card))
def cave_pays(ctx, event):
    # Bases FAQ: the owner scores it, not the controller. Minions put away when the base scores
    # are discarded, not destroyed: no VP for them.
    ctx.gain_vp(ctx.owner(event.card), 1)


mushroom = base("Mushroom Kingdom", "core", 20, (5, 3, 2), faction="Tricksters", text=(
    "At the start of each player's turn, that player may move another player's minion from any "
    "base to here."))


@mushroom.hook("at_turn_start")
def mushroom_lure(ctx, seat):
    here = ctx.here
    player = ctx.performed_by(seat)  # "that player may move": that player moves it
    theirs = player.targets(where=lambda m: ctx.controller(m) != seat and ctx.base_of(m) != here)
    target = yield from player.choose_minion(
        theirs, "Move another player's minion to Mushroom Kingdom?", optional=True,
        intent="harm")
    if target is not None:
        yield from player.move(target, here)


# ---------------------------------------------------------------------- Wizards --------------
school = base("School of Wizardry", "core", 20, (3, 2, 1), faction="Wizards", text=(
    "After this base scores, the winner looks at the top 3 bases of the base deck, picks the one "
    "that replaces this base and puts the others back on top in any order."))


@school.hook("replace_from")
def school_picks(ctx, scoring):
    winners = ctx.in_turn_order(scoring.winners())
    if not winners or not ctx.refill_base_deck():
        return None
    # Tied winners each use it in turn (WWWT Tie Fighter): each rearranges the same top 3, so the
    # last one's pick replaces the base (our reading; no ruling found).
    for seat in winners:
        top = ctx.look_at_bases(3, seat=seat)
        picked = yield from ctx.choose_cards(top, "Which base replaces School of Wizardry?",
                                             seat=seat, reveal=top)
        rest = [b for b in top if b != picked[0]]
        order = yield from ctx.choose_order(
            rest, "Put the other bases back on top: which one is on top?", seat=seat, reveal=top)
        ctx.put_bases_on_deck([picked[0], *order])
    return picked[0]


library = base("The Great Library", "core", 22, (4, 2, 1), faction="Wizards", text=(
    "After this base scores, each player with a minion here may draw a card."))


@library.hook("after_scoring")
def library_reading(ctx, scoring):
    readers = [s for s in ctx.players_from_current()
               if ctx.minions(base=ctx.here, controller=s)]
    for seat in readers:
        reader = ctx.performed_by(seat)
        if (yield from reader.may("Draw a card (The Great Library)?")):
            reader.draw(seat, 1)


# ---------------------------------------------------------------------- Zombies --------------
cemetery = base("Evans City Cemetery", "core", 20, (5, 3, 2), faction="Zombies", text=(
    "After this base scores, the winner discards their hand and draws 5 cards."))


@cemetery.hook("after_scoring")
def cemetery_new_hand(ctx, scoring):
    for seat in ctx.in_turn_order(scoring.winners()):
        winner = ctx.performed_by(seat)  # the winner discards and draws
        winner.discard_from_hand(seat, ctx.hand(seat))
        winner.draw(seat, 5)


mall = base("Rhodes Plaza Mall", "core", 24, (0, 0, 0), faction="Zombies", text=(
    "When this base scores, each player gains 1 VP for each of their minions here."))


@mall.hook("when_scoring")
def mall_sales(ctx, scoring):
    for seat in ctx.players_from_current():
        count = len(ctx.minions(base=ctx.here, controller=seat))
        if count:
            ctx.gain_vp(seat, count)
