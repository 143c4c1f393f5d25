"""The bases of It's Your Fault!.

Where a base says "that player may ...", the player performs the base's ability (`Ctx.acting`):
they are asked, and the events name them as who did it (Imperial Dragon and Hatchling react to
who moved a minion, Shark Reef to who destroyed one)."""
from smashup.engine import base

# ---------------------------------------------------------------------- Dragons --------------
lair = base("Dragon's Lair", "iyf", 18, (2, 2, 1), faction="Dragons", text=(
    "When this base scores, the winner draws 3 cards."))


@lair.hook("after_scoring")
def lair_hoard(ctx, scoring):
    # The community page (rules 002, scoring step 5): a base that only says "the winner ..."
    # has an implied "after this base scores". Tied winners each draw, in turn order.
    for seat in ctx.in_turn_order(scoring.winners()):
        ctx.draw(seat, 3)


desolation = base("Wyrm's Desolation", "iyf", 20, (5, 3, 2), faction="Dragons", text=(
    "Each minion here has -1 power."))


@desolation.modifier(to="here", local=True)
def desolation_weakens(ctx, minion):
    return -1 if ctx.base_of(minion) == ctx.here else 0


# ---------------------------------------------------------------------- Mythic Greeks --------
def _played_here(ctx, event):
    return event.base == ctx.here


oracle = base("Oracle at Delphi", "iyf", 18, (4, 2, 1), faction="Mythic Greeks", text=(
    "After a player plays a minion here, that player reveals the top card of their deck; an "
    "action goes into their hand, anything else stays on top."))


@oracle.trigger("minion_played", applies=_played_here)
def oracle_foretells(ctx, event):
    player = ctx.acting(event.player)
    for top in player.reveal_top(event.player, 1):
        if player.is_action(top):
            player.place_in_hand(top, revealed=True)


horse = base("Wooden Horse", "iyf", 21, (3, 2, 1), faction="Mythic Greeks", text=(
    "After a player plays an action anywhere, that player may give a minion here +2 power until "
    "the end of the turn."))


@horse.trigger("action_played")
def horse_hides_a_warrior(ctx, event):
    player = ctx.acting(event.player)
    # Anyone's minion here (catalog); a gift of power: "help" (the bots give it to their own).
    minion = yield from player.choose_minion(
        player.one_of_each(player.targets(base=ctx.here, effect="power")),
        f"Give a minion on {ctx.base_name(ctx.here)} +2 power this turn?", optional=True,
        intent="help")
    if minion is not None:
        player.add_power(minion, 2)


# ---------------------------------------------------------------------- Sharks ---------------
reef = base("Shark Reef", "iyf", 20, (4, 2, 1), faction="Sharks", text=(
    "After a minion here is destroyed, the player who destroyed it may put a +1 power counter "
    "on one of their minions."))


@reef.trigger("destroyed", applies=lambda ctx, e: e.base == ctx.here and ctx.is_minion(e.card)
              and e.by_player is not None)
def reef_feeds(ctx, event):
    # "The player who destroyed it": whoever controlled the ability that did (Event.by_player);
    # a destroy nobody performed (a base's own ability) feeds nobody.
    player = ctx.acting(event.by_player)
    minion = yield from player.choose_minion(
        player.one_of_each(player.targets(controller=event.by_player, effect="counters")),
        "Put a +1 power counter on one of your minions?", optional=True, intent="help")
    if minion is not None:
        player.add_counters(minion, 1)


deep = base("The Deep", "iyf", 16, (3, 2, 2), faction="Sharks", text=(
    "After a player plays a minion of power 4 or more here, that player may destroy a minion "
    "here with less power than it."))


@deep.trigger("minion_played", applies=lambda ctx, e: e.base == ctx.here
              and ctx.base_of(e.card) == ctx.here and ctx.power(e.card) >= 4)
def deep_swallows(ctx, event):
    player = ctx.acting(event.player)
    # Its power when the base's ability resolves (the minion is in play by then), anyone's
    # minion, the player's own included.
    strength = ctx.power(event.card)
    yield from player.choose_and(
        player.destroy,
        player.one_of_each(player.targets(base=ctx.here, where=lambda m: ctx.power(m) < strength)),
        f"Destroy a minion here with less power than {ctx.name(event.card)}?", optional=True)


# ---------------------------------------------------------------------- Superheroes ----------
cave = base("Converted Cave", "iyf", 18, (4, 3, 2), faction="Superheroes", text=(
    "Minions of power 2 or less here cannot be destroyed except by their own controller."))


@cave.protection("destroy", from_="not_its_controller", local=True)
def cave_shelters(ctx, minion):
    # Catalog note (Bear Hug): a player made to destroy their own minion here performs the
    # destroy, so it is not protected; the engine reads who performs it (`by_player`).
    return ctx.base_of(minion) == ctx.here and ctx.power(minion) <= 2


fortress = base("Crystal Fortress", "iyf", 19, (3, 1, 1), faction="Superheroes", text=(
    "After a player plays a minion here, that player may put a minion card from their discard "
    "pile on the bottom of their deck."))


@fortress.trigger("minion_played", applies=_played_here)
def fortress_recovers(ctx, event):
    # Catalog note: every minion played here, not only the first of a turn.
    player = ctx.acting(event.player)
    pile = [c for c in player.discard_pile(event.player) if player.is_minion(c)]
    chosen = yield from player.choose_cards(
        player.one_of_each(pile), "Put a minion from your discard pile on the bottom of your deck?",
        min_count=0, intent="help")
    player.put_on_deck(chosen, bottom=True)


# ---------------------------------------------------------------------- Tornados -------------
alley = base("Tornado Alley", "iyf", 25, (4, 3, 2), faction="Tornados", text=(
    "After a player plays a minion here for the first time in a turn, that player may move "
    "another minion from another base here."))


def _first_play_here(ctx, event):
    # Catalog reading: "the first time in a turn" is counted per player; the play just made is
    # the first minion that player played on this base this turn.
    return event.base == ctx.here and len(
        [p for p in ctx.plays(seat=event.player, base=ctx.here) if ctx.is_minion(p.card)]) == 1


@alley.trigger("minion_played", applies=_first_play_here)
def alley_pulls_in(ctx, event):
    player = ctx.acting(event.player)
    here = ctx.here
    yield from player.choose_and_move(
        player.one_of_each(player.targets(where=lambda m: ctx.base_of(m) != here)),
        f"Move a minion from another base to {ctx.base_name(here)}?", to=[here], optional=True)


park = base("Trailer Park", "iyf", 20, (4, 2, 1), faction="Tornados", text=(
    "After a player moves a minion here, it gets a +1 power counter."))


@park.trigger("moved", applies=lambda ctx, e: e.base == ctx.here)
def park_settles(ctx, event):
    # Mandatory, and on the moved minion whoever moved it.
    ctx.add_counters(event.card, 1)
