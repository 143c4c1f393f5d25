"""Zombies (Core Set): the discard pile is a second hand; minions keep coming back from it."""
from smashup.engine import MINION, Faction

zombies = Faction("Zombies", set="core")


def _minions_in_discard(ctx, max_power=None):
    # Out of play a minion's power is its printed power.
    return [c for c in ctx.discard_pile() if ctx.is_minion(c)
            and (max_power is None or ctx.printed_power(c) <= max_power)]


# ------------------------------------------------------------------------------- minions ----
@zombies.minion("Zombie Lord", power=5, text=(
    "On play: for each base where you have no minions at this moment, you may play one extra "
    "minion of power 2 or less from your discard pile onto that base."))
def zombie_lord(ctx):
    # AEG: the eligible bases are fixed now (the Lord is already on its own base, so that one is
    # never eligible); at most one minion per base; each is played at once or not at all. A
    # base that left play meanwhile (scored after an on-play ability) is no longer offered.
    eligible = ctx.bases(lambda u: not ctx.minions(base=u, controller=ctx.me))
    while True:
        eligible = [u for u in eligible if u in ctx.bases()]
        candidates = _minions_in_discard(ctx, max_power=2)
        if not eligible or not candidates:
            return
        picked = yield from ctx.choose_play(
            candidates, eligible, "Play a minion of power 2 or less from your discard pile on a "
                                  "base where you had no minion?")
        if picked is None:
            return
        cid, uid = picked
        eligible.remove(uid)
        yield from ctx.play_minion(cid, uid)


@zombies.minion("Grave Digger", power=4, copies=2, text=(
    "On play: you may put a minion card from your discard pile into your hand."))
def grave_digger(ctx):
    chosen = yield from ctx.choose_cards(
        ctx.one_of_each(_minions_in_discard(ctx)),
        "Put a minion from your discard pile into your hand?", 0, 1, intent="help")
    for c in chosen:
        ctx.place_in_hand(c)


tenacious_z = zombies.minion("Tenacious Z", power=2, copies=3, text=(
    "Special: during your turn you may play this minion from your discard pile as an extra "
    "minion. Only one Tenacious Z ability may be used per turn."))


# AEG: only in your Play Cards phase (the engine offers plays cards give each turn there only, in
# the main decision). Once per turn across every copy (`once="name"`): no play of yours this turn
# came from the discard pile through a Tenacious Z's own ability (a copy played with They Keep
# Coming or They're Coming To Get You used another card's ability and does not count; if one
# did and the grant is wanted for another card, the engine lets the Z's own ability take over).
tenacious_z.grants_each_turn(MINION, zone="discard", this_card=True, once="name")


@zombies.minion("Walker", power=2, copies=4, text=(
    "On play: look at the top card of your deck, then discard it or put it back on top."))
def walker(ctx):
    top = ctx.look_at_top(ctx.me, 1)
    if not top:
        return
    name = ctx.name(top[0])
    # Only the Walker's controller sees this question, so its labels may name the card.
    keep = yield from ctx.choose_one(f"The top card of your deck is {name}.",
                                     [(False, f"Discard {name}"),
                                      (True, f"Put {name} back on top of your deck")])
    if not keep:
        ctx.discard(top)


# ------------------------------------------------------------------------------- actions ----
@zombies.action("Grave Robbing", copies=2, text=(
    "Put a card from your discard pile into your hand."))
def grave_robbing(ctx):
    # Mandatory when the pile holds a card; Grave Robbing itself is still resolving, not in the
    # pile. Discard piles are public: the log names the card (catalog).
    chosen = yield from ctx.choose_cards(ctx.one_of_each(ctx.discard_pile()),
                                         "Put which card from your discard pile into your hand?",
                                         intent="help")
    for c in chosen:
        ctx.place_in_hand(c)


@zombies.action("Lend a Hand", text=(
    "Shuffle any number of cards from your discard pile into your deck."))
def lend_a_hand(ctx):
    # AEG: Lend a Hand itself is not among them (it is resolving; it goes to the discard pile
    # afterwards). Zero cards chosen: nothing is shuffled.
    chosen = yield from ctx.choose_any_number(
        ctx.discard_pile(), "Shuffle a card from your discard pile into your deck?",
        intent="help")
    if chosen:
        yield from ctx.shuffle_into_deck(chosen)


@zombies.action("Mall Crawl", text=(
    "Search your deck for any number of cards with the same name and put them into your discard "
    "pile. Shuffle your deck."))
def mall_crawl(ctx):
    # An empty deck takes the shuffled discard pile first (WWWT Phase 4, "search"); the searched
    # deck is shuffled whatever was found, the cards found are revealed (CR "Void Where
    # Prohibited"). Declining the name finds nothing.
    yield from ctx.search("Put which cards (all of one name) from your deck into your discard "
                          "pile?", same_name=True, to="discard")


@zombies.action("Not Enough Bullets", text=(
    "Put any number of minions with the same name from your discard pile into your hand."))
def not_enough_bullets(ctx):
    chosen = yield from ctx.choose_same_name(
        _minions_in_discard(ctx),
        "Put which minions (all of one name) from your discard pile into your hand?",
        intent="help")
    for c in chosen:
        ctx.place_in_hand(c)


@zombies.action("Outbreak", text=(
    "You may play an extra minion this turn on a base where you have no minions."))
def outbreak(ctx):
    # Checked when the extra minion is played: a base where you have no minion at that moment.
    yield from ctx.grant_extra(MINION, condition="no_minion_of_yours")


overrun = zombies.action("Overrun", attach="base", intent="help", text=(
    "Play on a base. Ongoing: other players cannot play minions on this base. Destroy this card "
    "at the start of your next turn."))


@overrun.restriction(here=True)
def overrun_bars(ctx, play):
    # Every minion play of another player, whatever allows it (the main decision, an extra, a
    # Special such as Shinobi, a minion played by an ability); not moves, which are no plays
    # (WWWT "Play"). Its controller still may.
    return ctx.is_minion(play.card) and play.base == ctx.here and play.seat != ctx.me


@overrun.trigger("turn_start", applies=lambda ctx, event: event.player == ctx.me)
def overrun_ends(ctx, event):
    yield from ctx.destroy_action(ctx.card)


@zombies.action("They Keep Coming", copies=2, text=(
    "You may play an extra minion from your discard pile this turn."))
def they_keep_coming(ctx):
    yield from ctx.grant_extra(MINION, zones=("discard",))


coming_to_get_you = zombies.action("They're Coming To Get You", attach="base", intent="help",
                                   text=(
    "Play on a base. Ongoing: once during each of your turns, you may play a minion here from "
    "your discard pile instead of from your hand (it uses one of your minion plays)."))


def _coming_to_get_you_lets(ctx, play, grant):
    # Current wording: once per turn (the original had no limit: `once_per_turn`). AEG: with your
    # regular minion play or a general extra one (any minion play you could use from hand on this
    # base), in your Play Cards phase only; not with a play for one card (Hoverbot's).
    return play.base == ctx.here and ctx.is_my_turn and grant.card is None


coming_to_get_you.play_source("discard", applies=_coming_to_get_you_lets, once_per_turn=True)
