"""Tricksters (Core Set, the 2012 card list): punish other players for playing here or touching
your minions, random discards, traps on bases.

Rulings are next to each card; the catalog is shared/cards/core.yaml (Tricksters)."""
from smashup.engine import ACTION, MINION, Faction

tricksters = Faction("Tricksters", set="core")


# ------------------------------------------------------------------------------- helpers -----
def _played_here_by_another(ctx, event) -> bool:
    """A minion played on this card's base by a player other than this card's controller."""
    return event.base == ctx.here and event.player is not None and event.player != ctx.me


def _same_minion_still_in_play(ctx, event) -> bool:
    """The minion of a `minion_played` event is still the card that was played (it did not leave
    play and come back during its own ability: then it is a new card in play)."""
    return ctx.still_in_play((event.card, event.data.get("entered")))


# ------------------------------------------------------------------------------- minions -----
leprechaun = tricksters.minion("Leprechaun", power=5, text=(
    "Ongoing: after another player plays a minion here with less power than this minion, that "
    "minion's ability resolves, then it is destroyed."))


def _weaker_minion_played_here(ctx, event) -> bool:
    # Ruling (catalog: the 2012 card; the rework is the one that compares power after the played
    # minion's ability): both powers are read as the minion entered play, before its ability
    # (`powers_here`, the event's snapshot of this base). A Leprechaun that was not on this base
    # then does not react.
    if not _played_here_by_another(ctx, event):
        return False
    powers = event.data.get("powers_here", {})
    return ctx.card in powers and powers[event.card] < powers[ctx.card]


@leprechaun.trigger("minion_played", applies=_weaker_minion_played_here)
def leprechaun_punishes(ctx, event):
    # It is destroyed wherever its own ability took it (catalog: only the rework spares a minion
    # that moved); one that left play meanwhile is gone already.
    if _same_minion_still_in_play(ctx, event):
        yield from ctx.destroy(event.card)


brownie = tricksters.minion("Brownie", power=4, copies=2, text=(
    "Ongoing: after another player plays a card that affects this minion, that player discards "
    "two cards at random."))


def _played_by(ctx, card, seat) -> int:
    """How many times `seat` played `card` this turn (0: it is not a card that player played)."""
    return sum(1 for p in ctx.plays(seat=seat) if p.card == card)


def _brownie_affected(who):
    """`applies` of one Brownie trigger: `who(ctx, event)` says whether the event touched this
    Brownie; the cause must be a card another player played this turn (a minion's on-play, an
    action, an action attached to it: Fandom glossary, catalog note)."""
    def applies(ctx, event):
        by = event.by_player
        if by is None or by == ctx.me or event.by_card is None or not who(ctx, event):
            return False
        return _played_by(ctx, event.by_card, by) > 0
    return applies


def _brownie_strikes(ctx, event):
    # One card played punishes once, however many times it touched this Brownie (destroyed and
    # then its actions discarded, moved then given power...): the flag names this Brownie, the
    # card and which play of that card it was.
    key = ("brownie", ctx.card, event.by_card, _played_by(ctx, event.by_card, event.by_player))
    if ctx.flag(key):
        return
    ctx.set_flag(key)
    ctx.discard_at_random(event.by_player, 2)


def _is_this(ctx, event) -> bool:
    return event.card == ctx.card


# What the glossary counts as affecting a card in play: destroyed, returned, placed (last words:
# the Brownie reacts after leaving play), moved, power changed, counters, an action attached, a
# transfer onto or off it.
for _kind in ("destroyed", "returned", "placed"):
    brownie.trigger(_kind, applies=_brownie_affected(_is_this), leaves_play=True)(_brownie_strikes)
for _kind in ("moved", "power_changed", "counters_changed"):
    brownie.trigger(_kind, applies=_brownie_affected(_is_this))(_brownie_strikes)
brownie.trigger("attached", applies=_brownie_affected(
    lambda ctx, e: e.data.get("host") == ctx.card))(_brownie_strikes)
brownie.trigger("transferred", applies=_brownie_affected(
    lambda ctx, e: ctx.card in (e.card, e.data.get("to"), e.data.get("from"))))(_brownie_strikes)


@tricksters.minion("Gnome", power=3, copies=3, text=(
    "On play: you may destroy a minion here whose power is less than the number of your minions "
    "here (this one included)."))
def gnome(ctx):
    count = len(ctx.minions(base=ctx.here, controller=ctx.me))
    weaker = ctx.targets(base=ctx.here, where=lambda m: ctx.power(m) < count, effect=ctx.destroy)
    yield from ctx.choose_and(ctx.destroy, ctx.one_of_each(weaker),
                              f"Destroy a minion here of power less than {count}?", optional=True)


gremlin = tricksters.minion("Gremlin", power=2, copies=4, text=(
    "Ongoing: after this minion is destroyed, draw a card and each other player discards a card "
    "at random."))


@gremlin.trigger("destroyed", leaves_play=True, applies=lambda ctx, e: e.card == ctx.card)
def gremlin_last_laugh(ctx, event):
    # "You": its last controller. Only a destruction: a Gremlin discarded when its base scores
    # or returned to a hand does nothing.
    ctx.draw(ctx.me, 1)
    for seat in ctx.opponents():
        ctx.discard_at_random(seat, 1)


# ------------------------------------------------------------------------------- actions -----
block_the_path = tricksters.action("Block the Path", attach="base", intent="harm", text=(
    "Play on a base and name a faction. Ongoing: nobody (you included) can play minions of that "
    "faction here."))


@block_the_path.on_played
def block_the_path_played(ctx):
    # Any faction of this game may be named, your own included (the card says no player).
    faction = yield from ctx.name_faction("Block the Path: name a faction", intent="harm")
    ctx.remember("faction", faction)
    ctx.log(f"{ctx.player_name(ctx.me)} names {faction}: its minions cannot be played on "
            f"{ctx.base_name(ctx.here)}.")


@block_the_path.restriction(here=True)
def block_the_path_blocks(ctx, play):
    # Every way of playing a minion here (the main decision, extras, Specials such as Shinobi,
    # abilities such as Hoverbot); a minion moved here is not played, so it may come.
    return (ctx.is_minion(play.card) and play.base == ctx.here
            and ctx.faction_of(play.card) == ctx.recall("faction"))


@tricksters.action("Disenchant", copies=2, text=(
    "Destroy an action on a minion or a base."))
def disenchant(ctx):
    everywhere = [a for u in ctx.bases() for a in ctx.actions_on_base(u)]
    everywhere += [a for m in ctx.minions() for a in ctx.attached(m)]
    # Anyone's, yours included; nothing in play, nothing happens.
    for a in (yield from ctx.choose_actions(everywhere, "Destroy which action?", intent="harm")):
        yield from ctx.destroy_action(a)


mist = tricksters.action("Enshrouding Mist", copies=2, attach="base", intent="help", text=(
    "Play on a base. Ongoing: on your turn you may play an extra minion here."))


@mist.talent_ability()
def mist_extra_minion(ctx):
    # CR "Using Talents and 'On Your Turn' Abilities": an "on your turn" ability works as a
    # talent, once per turn for each Mist in play, on the turn it is played too.
    yield from ctx.grant_extra(MINION, base=ctx.here)


flame_trap = tricksters.action("Flame Trap", attach="base", intent="harm", text=(
    "Play on a base. Ongoing: after another player plays a minion here, its ability resolves, "
    "then destroy it and this card."))


@flame_trap.trigger("minion_played", applies=_played_here_by_another)
def flame_trap_springs(ctx, event):
    # Mandatory; the trap burns even when the minion cannot be destroyed (Warbot) or is left
    # alone (Hideout took the blow), and one that left play during its ability is gone already.
    if _same_minion_still_in_play(ctx, event):
        yield from ctx.destroy(event.card)
    yield from ctx.destroy_action(ctx.card)


hideout = tricksters.action("Hideout", attach="base", intent="help", text=(
    "Play on a base. Ongoing: if another player's action would affect your minions here, destroy "
    "this card instead, and that action does not affect your minions."))


def _hideout_covers(ctx, attempt) -> bool:
    # Only an action (not a minion's or a base's ability) of another player, only your minions on
    # this base; whether it would help or harm them (any affect, WWWT "Affect").
    return (attempt.source_player is not None and attempt.source_player != ctx.me
            and ctx.is_action(attempt.source) and ctx.in_play(attempt.target)
            and ctx.is_minion(attempt.target) and ctx.controller(attempt.target) == ctx.me
            and ctx.base_of(attempt.target) == ctx.here)


@hideout.replacement("affect", applies=_hideout_covers)
def hideout_takes_the_blow(ctx, attempt):
    # The whole action leaves your minions here alone from now on (those here now), not only the
    # one it touched first.
    mine = ctx.minions(base=ctx.here, controller=ctx.me)
    ctx.log(f"{ctx.name(ctx.card)} is destroyed instead: {ctx.name(attempt.source)} does not "
            f"affect {ctx.player_name(ctx.me)}'s minions on {ctx.base_name(ctx.here)}.")
    ctx.at_once(ctx.destroy_action(ctx.card))
    ctx.unaffected_by(attempt.source, mine)
    return True


@tricksters.action("Mark of Sleep", text=(
    "Choose a player. That player cannot play actions during their next turn."))
def mark_of_sleep(ctx):
    # Any player, you included ("their next turn": yours is then the next one, not this one).
    seat = yield from ctx.choose_player(ctx.players(), "Who cannot play actions next turn?",
                                        intent="harm")
    ctx.restrict(seat, ACTION, next_turn=True)
    ctx.log(f"{ctx.player_name(seat)} cannot play actions during their next turn.")


pay_the_piper = tricksters.action("Pay the Piper", attach="base", intent="harm", text=(
    "Play on a base. Ongoing: after another player plays a minion here, that player discards a "
    "card of their choice."))


@pay_the_piper.trigger("minion_played", applies=_played_here_by_another)
def piper_collects(ctx, event):
    seat = event.player
    hand = ctx.hand(seat)
    if not hand:
        return
    chosen = yield from ctx.choose_cards(ctx.one_of_each(hand), "Pay the Piper: discard a card",
                                         1, 1, seat=seat, intent="harm")
    ctx.discard_from_hand(seat, chosen)


@tricksters.action("Take the Shinies", text="Each other player discards two cards at random.")
def take_the_shinies(ctx):
    for seat in ctx.opponents():
        ctx.discard_at_random(seat, 2)
