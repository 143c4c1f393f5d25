"""Wizards (Core Set): extra actions, card draw, plays from the top of a deck."""
from smashup.engine import ACTION, MINION, Faction

wizards = Faction("Wizards", set="core")


# ------------------------------------------------------------------------------- minions ----
archmage = wizards.minion("Archmage", power=4, text="Talent: you may play one extra action.")


@archmage.talent_ability()
def archmage_talent(ctx):
    # AEG: the extra action stays available if the Archmage is destroyed later in the turn (a
    # grant belongs to the player, not to the card).
    yield from ctx.grant_extra(ACTION)


@wizards.minion("Chronomage", power=3, copies=2, text=(
    "On play: you may play one extra action this turn."))
def chronomage(ctx):
    # AEG: the extra action stays available even if the Chronomage is destroyed that turn.
    yield from ctx.grant_extra(ACTION)


@wizards.minion("Enchantress", power=2, copies=3, text="On play: you draw 1 card.")
def enchantress(ctx):
    ctx.draw(ctx.me, 1)


@wizards.minion("Neophyte", power=2, copies=4, text=(
    "On play: reveal the top card of your deck. If it is an action, you may put it into your "
    "hand or play it immediately as an extra action; otherwise (or if you do neither) put it "
    "back on top of your deck."))
def neophyte(ctx):
    top = ctx.reveal_top(ctx.me, 1)
    if not top or not ctx.is_action(top[0]):
        return
    action = top[0]
    # First "play it now" (only offered when it can be played: a Special-only action or one with
    # nothing to be played on cannot), then "into your hand"; declining both leaves it on top.
    played = yield from ctx.play_extra_now(ACTION, cards=[action])
    if played is None and (yield from ctx.may(f"Put {ctx.name(action)} into your hand?")):
        ctx.place_in_hand(action, revealed=True)


# ------------------------------------------------------------------------------- actions ----
@wizards.action("Mass Enchantment", text=(
    "Reveal the top card of each other player's deck. You may play one of the revealed actions "
    "immediately as an extra action, under your control (you resolve it). Put every other "
    "revealed card back on top of the deck it came from."))
def mass_enchantment(ctx):
    revealed = []
    for seat in ctx.opponents():
        revealed += ctx.reveal_top(seat, 1)
    # The revealed cards never left their decks: those not played simply stay on top. The one
    # played goes to its owner's discard pile afterwards (or stays in play, controlled by you).
    yield from ctx.play_extra_now(ACTION, cards=[c for c in revealed if ctx.is_action(c)])


@wizards.action("Mystic Studies", copies=2, text="Draw 2 cards.")
def mystic_studies(ctx):
    ctx.draw(ctx.me, 2)


@wizards.action("Portal", text=(
    "Reveal the top 5 cards of your deck. Put any number of the revealed minions into your hand; "
    "return the other cards to the top of your deck in any order."))
def portal(ctx):
    top = ctx.reveal_top(ctx.me, 5)
    minions = [c for c in top if ctx.is_minion(c)]
    # One minion at a time among the kinds still there (alike copies are one option), until the
    # player stops: any number, both copies included.
    taken = []
    while minions:
        picked = yield from ctx.choose_cards(
            ctx.one_of_each(minions), "Put a revealed minion into your hand? "
            f"({len(taken)} taken so far)", 0, 1, reveal=top, intent="help")
        if not picked:
            break
        ctx.place_in_hand(picked[0], revealed=True)
        taken.append(picked[0])
        minions.remove(picked[0])
    rest = [c for c in top if c not in taken]
    order = yield from ctx.choose_order(rest, "Put the other revealed cards back: which one is "
                                              "on top?", reveal=rest)
    ctx.put_on_deck(order)


@wizards.action("Sacrifice", text=(
    "Choose one of your minions. Draw cards equal to its current power, then destroy it."))
def sacrifice(ctx):
    # Any of your minions this action may affect, even one that cannot be destroyed (a Warbot):
    # you draw, and it stays (our reading: the parts that can happen do).
    # "help": the stronger it is, the more cards it draws.
    target = yield from ctx.choose_minion(ctx.one_of_each(ctx.targets(controller=ctx.me)),
                                          "Sacrifice which of your minions?", intent="help")
    if target is None:
        return
    power = ctx.power(target)
    if power:
        ctx.draw(ctx.me, power)
    yield from ctx.destroy(target)


@wizards.action("Scry", text=(
    "Search your deck for an action, reveal it to all players, put it into your hand, then "
    "shuffle your deck."))
def scry(ctx):
    # With an action in the deck you take one (the card says so; no "may"); the deck is shuffled
    # whether or not one was found (the search saw the whole deck).
    yield from ctx.search_deck("Take which action into your hand?", where=ctx.is_action,
                               min_count=1)


@wizards.action("Summon", copies=2, text="You may play one extra minion this turn.")
def summon(ctx):
    yield from ctx.grant_extra(MINION)


@wizards.action("Time Loop", text="You may play two extra actions this turn.")
def time_loop(ctx):
    yield from ctx.grant_extra(ACTION)
    yield from ctx.grant_extra(ACTION)


@wizards.action("Winds of Change", text=(
    "Shuffle your whole hand into your deck, then draw 5 cards. Then you may play one extra "
    "action this turn."))
def winds_of_change(ctx):
    went = yield from ctx.shuffle_into_deck(ctx.hand())
    if not went:
        ctx.shuffle_deck()  # an empty hand: the deck is shuffled all the same
    ctx.draw(ctx.me, 5)
    yield from ctx.grant_extra(ACTION)
