"""Grannies (What Were We Thinking?): looking at, ordering and using the top and the bottom of
your own deck. "Reveal" shows a card to everyone, "look at" only to you (CR "Void Where
Prohibited"); a card put back on a deck is no event unless it came from elsewhere."""
from smashup.engine import ACTION, MINION, Faction

grannies = Faction("Grannies", set="wwwt")


def _deck_or_pile(ctx) -> bool:
    # A deck that runs out takes the shuffled discard pile first (WWWT Phase 4), so there is
    # something to look at while either holds a card.
    return ctx.deck_size() > 0 or bool(ctx.discard_pile())


# ------------------------------------------------------------------------------ minions -------
matriarch = grannies.minion("Matriarch", power=5, text=(
    "Talent: reveal the bottom two cards of your deck. Every minion among them goes into your "
    "hand; the others are discarded."))


@matriarch.talent_ability(usable=_deck_or_pile)
def matriarch_gathers(ctx):
    revealed = ctx.reveal_top(ctx.me, 2, bottom=True)
    for c in revealed:
        if ctx.is_minion(c):
            ctx.place_in_hand(c, revealed=True)
    ctx.discard([c for c in revealed if not ctx.is_minion(c)])


granny = grannies.minion("Granny", power=4, copies=2, text=(
    "Talent: look at the top card of your deck, then leave it there or put it on the bottom."))


@granny.talent_ability(usable=_deck_or_pile)
def granny_peeks(ctx):
    yield from ctx.look_then_top_or_bottom()


@grannies.minion("Nana", power=3, copies=3, text=(
    "On play: reveal the top card of your deck. An action goes into your hand or is played at "
    "once as an extra action, as you choose; anything else goes to the bottom of your deck."))
def nana(ctx):
    revealed = ctx.reveal_top(ctx.me, 1)
    if not revealed:
        return
    card = revealed[0]
    if not ctx.is_action(card):
        ctx.put_on_deck([card], bottom=True)
        ctx.log(f"{ctx.name(card)} goes to the bottom of {ctx.player_name(ctx.me)}'s deck.")
        return
    # "Must either": one of the two, the play only when the action has a legal play now.
    choices = [("hand", f"Put {ctx.name(card)} into your hand")]
    if ctx.can_play(card):
        choices.append(("play", f"Play {ctx.name(card)} now as an extra action"))
    how = yield from ctx.choose_one(f"Nana revealed {ctx.name(card)}:", choices, intent="help")
    if how == "play":
        played = yield from ctx.play_extra_now(ACTION, cards=[card], optional=False)
        if played is not None:
            return
    ctx.place_in_hand(card, revealed=True)


@grannies.minion("Grandma", power=2, copies=4, text=(
    "On play: look at the top card of your deck, then leave it there or put it on the bottom."))
def grandma(ctx):
    yield from ctx.look_then_top_or_bottom()


# ------------------------------------------------------------------------------ actions -------
always_room = grannies.action("Always Room at Granny's", special_only=True, text=(
    "Special: after a base scores (on any turn), play this: up to three of your minions that were "
    "there go onto your deck instead of the discard pile, each on the top or the bottom, in the "
    "order you choose."))


def _homebound(ctx, scoring):
    return ctx.minions(base=scoring.base, controller=ctx.me,
                       where=lambda m: m not in scoring.instead)


@always_room.special("after_scoring", usable=lambda ctx, scoring: bool(_homebound(ctx, scoring)),
                     label="Play Always Room at Granny's: your minions there go onto your deck")
def always_room_takes_them_in(ctx, scoring):
    # Each minion goes to its owner's deck (a card always goes to its owner's piles). Several
    # onto one end of a deck: the engine asks their owner the order when they are put away
    # (step 7), so here each is only told its end. Not an effect on the minions (the
    # scoring's "instead", as for Scout), so no protection is asked.
    for count in range(3):
        candidates = ctx.one_of_each(_homebound(ctx, scoring))
        minion = yield from ctx.choose_minion(
            candidates, f"Which of your minions goes onto your deck? ({count} of 3 chosen)",
            optional=True, intent="help")
        if minion is None:
            return
        scoring.redirect(minion, (yield from ctx.choose_deck_end(minion)), by=ctx)


@grannies.action("Attic Treasures", copies=2, text=(
    "Put up to three cards from your hand on the bottom of your deck in any order, then draw as "
    "many cards."))
def attic_treasures(ctx):
    # One card at a time: the order they are picked is the order they go under the deck.
    stored = 0
    for _ in range(3):
        picked = yield from ctx.choose_cards(
            ctx.one_of_each(ctx.hand()), f"Put a card from your hand on the bottom of your deck? "
            f"({stored} of 3)", min_count=0, intent="help")
        if not picked:
            break
        ctx.put_on_deck(picked, bottom=True)
        stored += 1
    # The cards came from the hand: the table learns how many, not which.
    ctx.log(f"{ctx.player_name(ctx.me)} puts {stored} card(s) from their hand on the bottom of "
            "their deck.")
    ctx.draw(ctx.me, stored)


@grannies.action("Chicken Soup", text=(
    "Take up to two cards from your discard pile and put each on the top or the bottom of your "
    "deck."))
def chicken_soup(ctx):
    for taken in range(2):
        picked = yield from ctx.choose_cards(
            ctx.one_of_each(ctx.discard_pile()),
            f"Put a card from your discard pile onto your deck? ({taken} of 2)", min_count=0,
            intent="help")
        if not picked:
            return
        end = yield from ctx.choose_deck_end(picked[0])
        ctx.put_on_deck(picked, bottom=end == "deck_bottom")
        # A card from the discard pile was public: say where it went.
        ctx.log(f"{ctx.name(picked[0])} goes from {ctx.player_name(ctx.me)}'s discard pile "
                f"{'to the bottom' if end == 'deck_bottom' else 'on top'} of their deck.")


babies = grannies.action("Don't Mess With My Babies!", attach="base", intent="help", text=(
    "Play on a base. Ongoing: your minions here are not affected by cards other players "
    "control (base abilities and your own cards still affect them)."))


@babies.protection("affect", from_="other_players_cards", local=True)
def babies_shelter(ctx, target):
    return (ctx.is_minion(target) and ctx.base_of(target) == ctx.here
            and ctx.controller(target) == ctx.me)


reunion = grannies.action("Family Reunion", attach="base", intent="help", text=(
    "Play on a base. Ongoing: after you play a minion here, reveal the bottom card of your deck: "
    "a minion goes into your hand, anything else onto the top of your deck."))


@reunion.trigger("minion_played", applies=lambda ctx, e: e.base == ctx.here and e.player == ctx.me)
def reunion_gathers(ctx, event):
    revealed = ctx.reveal_top(ctx.me, 1, bottom=True)
    if not revealed:
        return
    card = revealed[0]
    if ctx.is_minion(card):
        ctx.place_in_hand(card, revealed=True)
    else:
        ctx.put_on_deck([card])
        ctx.log(f"{ctx.name(card)} goes on top of {ctx.player_name(ctx.me)}'s deck.")


@grannies.action("Granny's Purse", copies=2, text=(
    "Reveal the top card of your deck: an action may go into your hand or stay on top; anything "
    "else goes to the bottom. Then you may play an extra action this turn."))
def grannys_purse(ctx):
    revealed = ctx.reveal_top(ctx.me, 1)
    if revealed:
        card = revealed[0]
        if not ctx.is_action(card):
            ctx.put_on_deck([card], bottom=True)
            ctx.log(f"{ctx.name(card)} goes to the bottom of {ctx.player_name(ctx.me)}'s deck.")
        else:
            keep = yield from ctx.choose_one(
                f"Granny's Purse revealed {ctx.name(card)}:",
                [("hand", f"Put {ctx.name(card)} into your hand"), ("top", "Leave it on top")],
                intent="help")
            if keep == "hand":
                ctx.place_in_hand(card, revealed=True)
    yield from ctx.grant_extra(ACTION)


@grannies.action("Hush, My Stories are On", text=(
    "Reveal the bottom card of your deck and put it into your hand, whatever it is. A minion may "
    "then be played at once as an extra minion."))
def hush(ctx):
    revealed = ctx.reveal_top(ctx.me, 1, bottom=True)
    if not revealed:
        return
    card = revealed[0]
    ctx.place_in_hand(card, revealed=True)
    if ctx.is_minion(card):
        yield from ctx.play_extra_now(MINION, cards=[card])


@grannies.action("Knitting Circle", text=(
    "Destroy up to three actions (anyone's) on minions or bases, then draw a card for each one "
    "destroyed."))
def knitting_circle(ctx):
    destroyed = 0
    for _ in range(3):
        in_play = [a for uid in ctx.bases() for a in ctx.actions_on_base(uid)]
        in_play += [a for m in ctx.minions() for a in ctx.attached(m)]
        picked = yield from ctx.choose_actions(
            in_play, f"Destroy an action in play? ({destroyed} of 3)", min_count=0,
            intent="harm")
        if not picked:
            break
        if (yield from ctx.destroy_action(picked[0])):
            destroyed += 1
    ctx.draw(ctx.me, destroyed)
