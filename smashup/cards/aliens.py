"""Aliens (Core Set): returns, VP from Invaders, base swaps."""
from smashup.engine import MINION, Faction

aliens = Faction("Aliens", set="core")


@aliens.minion("Supreme Overlord", power=5, text=(
    "On play: you may return any one minion in play (this one included) to its owner's hand."))
def supreme_overlord(ctx):
    yield from ctx.choose_and(ctx.return_to_hand, ctx.targets(),
                              "Return a minion to its owner's hand?", optional=True)


@aliens.minion("Invader", power=3, copies=2, text="On play: gain 1 VP.")
def invader(ctx):
    # AEG: the VP is kept even if this Invader leaves play later.
    ctx.gain_vp(ctx.me, 1)


scout = aliens.minion("Scout", power=3, copies=3, text=(
    "Special: after the base this minion is on scores, you may put it into your hand instead of "
    "your discard pile."))


def _scout_applies(ctx, event):
    # Only on its own base, and only while it is still headed for the discard pile: once an
    # earlier "instead" (Temple of Goju) has sent it elsewhere, there is nothing left to replace
    # (our reading: the first "instead" resolved wins, as CR step 9 does for base replacements).
    return ctx.here == event.base and ctx.card not in event.data["scoring"].instead


@scout.trigger("after_scoring", applies=_scout_applies,
               optional="Put Scout into your hand instead of your discard pile?")
def scout_to_hand(ctx, event):
    # The controller decides; the card goes to its owner's hand (WWWT: cards always go to their
    # owner's hand, deck or discard pile). "Put into your hand" is a place, not a return (WWWT
    # "Place"): the default term of a redirect.
    event.data["scoring"].redirect(ctx.card, "hand", by=ctx)


@aliens.minion("Collector", power=2, copies=4, text=(
    "On play: you may return a minion of power 3 or less on this base to its owner's hand."))
def collector(ctx):
    # The reverted errata: any minion of power 3 or less here, Collectors (itself) included.
    yield from ctx.choose_and(ctx.return_to_hand,
                              ctx.targets(base=ctx.here, where=ctx.power_at_most(3)),
                              "Return a minion of power 3 or less here?", optional=True)


@aliens.action("Abduction", text=(
    "Return a minion in play to its owner's hand. Then you may play an extra minion this turn."))
def abduction(ctx):
    yield from ctx.choose_and(ctx.return_to_hand, ctx.targets(),
                              "Return which minion to its owner's hand?")
    yield from ctx.grant_extra(MINION)


@aliens.action("Beam Up", copies=2, text="Return a minion in play to its owner's hand.")
def beam_up(ctx):
    yield from ctx.choose_and(ctx.return_to_hand, ctx.targets(),
                              "Return which minion to its owner's hand?")


@aliens.action("Crop Circles", text=(
    "Choose a base. Return every minion on it to its owner's hand."))
def crop_circles(ctx):
    uid = yield from ctx.choose_base(ctx.bases(), "Return every minion from which base?",
                                     intent="harm")
    for m in ctx.targets(base=uid):
        yield from ctx.return_to_hand(m)


@aliens.action("Disintegrator", copies=2, text=(
    "Put a minion of power 3 or less on the bottom of its owner's deck."))
def disintegrator(ctx):
    yield from ctx.choose_and(
        ctx.place_on_deck_bottom, ctx.targets(where=ctx.power_at_most(3)),
        "Put which minion of power 3 or less on the bottom of its owner's deck?")


@aliens.action("Invasion", text="Move a minion in play to another base.")
def invasion(ctx):
    yield from ctx.choose_and_move(ctx.targets(), "Move which minion?")


aliens.action("Jammed Signal", attach="base", cancels_base=True, text=(
    "Play on a base. Ongoing: that base's abilities are cancelled."))


@aliens.action("Probe", text=(
    "Look at another player's hand. If it holds a minion, choose one: that player discards it."))
def probe(ctx):
    seat = yield from ctx.choose_player(ctx.opponents(), "Look at whose hand?", intent="harm")
    ctx.reveal_hand_to(ctx.me, seat)
    hand = ctx.hand(seat)
    minions = [c for c in hand if ctx.is_minion(c)]
    chosen = yield from ctx.choose_cards(
        minions, f"{ctx.player_name(seat)} discards which minion?", reveal=hand, intent="harm")
    ctx.discard_from_hand(seat, chosen)


@aliens.action("Terraforming", text=(
    "Swap a base in play with any base from the base deck; everything on it stays. Shuffle the "
    "base deck. Then you may play an extra minion on the new base."))
def terraforming(ctx):
    # Searching an empty base deck first takes the shuffled base discard pile (WWWT Phase 4,
    # "search"; the base deck works like a player's deck, CR "Build the Base Deck"). With no base
    # to find anywhere, nothing happens: no base is asked for.
    if not ctx.refill_base_deck():
        return
    old = yield from ctx.choose_base(ctx.bases(), "Replace which base?")
    new = yield from ctx.search_base_deck("Search the base deck: which base comes in?")
    # Current wording: every card on the old base stays, on the new base (AEG clarification).
    ctx.swap_base(old, new)
    ctx.shuffle_base_deck()
    yield from ctx.grant_extra(MINION, base=old)
