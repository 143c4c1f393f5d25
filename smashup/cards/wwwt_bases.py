"""The eight bases of What Were We Thinking?

Where a base says who acts ("each player may", "that player looks"), that player does it
(`Ctx.performed_by`, `Ctx.acting`; issue 24): see core_bases.py."""
from smashup.engine import MINION, base

# ---------------------------------------------------------------------- Explorers ------------
temple = base("Ancient Temple", "wwwt", 20, (4, 2, 1), faction="Explorers", text=(
    "At the start of each player's turn, if that player has exactly one minion here, that minion "
    "has +5 power until the end of the turn, while it stays here."))


def _temple_key(ctx):
    return ("ancient_temple", ctx.here)


@temple.hook("at_turn_start")
def temple_blesses(ctx, seat):
    mine = ctx.minions(base=ctx.here, controller=seat)
    if len(mine) == 1:
        # A per-turn note read by the base's modifier (the audit's workaround): the bonus is
        # this base's, so it counts only while that very minion is on it (`in_play_mark`).
        ctx.set_flag(_temple_key(ctx), value=ctx.in_play_mark(mine[0]))
        ctx.log(f"{ctx.name(mine[0])} has +5 power this turn ({ctx.base_name(ctx.here)}).")


@temple.modifier(to="here", local=True)
def temple_power(ctx, minion):
    mark = ctx.flag(_temple_key(ctx))
    if mark is None or mark[0] != minion or ctx.base_of(minion) != ctx.here:
        return 0
    return 5 if ctx.still_in_play(mark) else 0


@temple.trigger("moved", applies=lambda ctx, e: e.data.get("from") == ctx.here)
def temple_left(ctx, event):
    # "While it stays here": once moved away, coming back this turn does not bring it back.
    mark = ctx.flag(_temple_key(ctx))
    if mark is not None and mark[0] == event.card:
        ctx.set_flag(_temple_key(ctx), value=None)


city = base("City of Gold", "wwwt", 16, (3, 1, 1), faction="Explorers", text=(
    "At the start of each player's turn, if that player has a minion here, they gain 1 VP."))


@city.hook("at_turn_start")
def city_pays(ctx, seat):
    if ctx.minions(base=ctx.here, controller=seat):
        ctx.gain_vp(seat, 1)


# ---------------------------------------------------------------------- Grannies -------------
house = base("Grandma's House", "wwwt", 25, (5, 3, 2), faction="Grannies", text=(
    "After a player plays a minion here, that player looks at the top card of their deck and "
    "leaves it there or puts it on the bottom."))


@house.trigger("minion_played", applies=lambda ctx, e: e.base == ctx.here)
def house_peeks(ctx, event):
    # "That player looks": that player does it.
    yield from ctx.performed_by(event.player).look_then_top_or_bottom(event.player)


retirement = base("Retirement Community", "wwwt", 20, (4, 2, 1), faction="Grannies", text=(
    "After this base scores, each player may put one of their minions from here on the top or "
    "the bottom of their deck instead of the discard pile."))


@retirement.hook("after_scoring")
def retirement_sends_home(ctx, scoring):
    # The usual order: the current player first, then clockwise. A minion an earlier "instead"
    # already sends elsewhere is not offered (the first "instead" wins). Several onto one end of
    # a deck: the owner orders them when they are put away (Game.order_deck_placements).
    for seat in ctx.players_from_current():
        player = ctx.performed_by(seat)  # "each player may put": that player does it
        theirs = ctx.one_of_each(ctx.minions(base=ctx.here, controller=seat,
                                             where=lambda m: m not in scoring.instead))
        minion = yield from player.choose_minion(
            theirs, "Put one of your minions from here onto your deck instead of the discard "
            "pile?", optional=True, intent="help")
        if minion is not None:
            scoring.redirect(minion, (yield from player.choose_deck_end(minion)), by=player)


# ---------------------------------------------------------------------- Rock Stars -----------
lake = base("Lake Minnetonka", "wwwt", 26, (5, 3, 2), faction="Rock Stars", text=(
    "After a player plays or moves a minion here, that minion has +1 power until the end of the "
    "turn."))


def _arrives_here(ctx, event):
    return event.base == ctx.here


@lake.trigger("minion_played", applies=_arrives_here)
def lake_welcomes_a_play(ctx, event):
    ctx.add_power(event.card, 1)


@lake.trigger("moved", applies=_arrives_here)
def lake_welcomes_a_move(ctx, event):
    ctx.add_power(event.card, 1)


palooza = base("Palooza", "wwwt", 27, (6, 4, 3), faction="Rock Stars", text=(
    "Before this base scores, each player may move one of their minions from another base "
    "here."))


@palooza.hook("before_scoring")
def palooza_gathers(ctx, scoring):
    # Catalog note: the order is not stated; the usual one, the current player first, then
    # clockwise, each choosing after seeing the moves before theirs.
    # Each player makes their own move (`acting`: Imperial Dragon sees who moved a minion).
    here = ctx.here
    for seat in ctx.players_from_current():
        player = ctx.acting(seat)
        theirs = player.one_of_each(player.targets(controller=seat, effect=player.move,
                                                   where=lambda m: ctx.base_of(m) != here))
        minion = yield from player.choose_minion(
            theirs, f"Move one of your minions to {ctx.base_name(here)}?", optional=True,
            intent="help")
        if minion is not None:
            yield from player.move(minion, here)


# ---------------------------------------------------------------------- Teddy Bears ----------
woods = base("Out in the Woods", "wwwt", 18, (3, 2, 1), faction="Teddy Bears", text=(
    "Before this base scores, each minion here has +1 power until the end of the turn."))


@woods.hook("before_scoring")
def woods_rally(ctx, scoring):
    for minion in ctx.minions(base=ctx.here):
        ctx.add_power(minion, 1)


bed = base("Under the Bed", "wwwt", 22, (4, 2, 1), faction="Teddy Bears", text=(
    "On your turn, once you have played a minion on another base, you may play one extra minion "
    "of power 2 or less here."))


def _played_elsewhere(ctx):
    # Any minion you played on another base this turn, in any phase, even one gone since.
    return any(p.base != ctx.here for p in ctx.plays(seat=ctx.me, kind=MINION))


# Offered in your own Play Cards phase (a base's play offered each turn), once per turn.
bed.grants_each_turn(MINION, applies=_played_elsewhere, max_power=2, here=True)
