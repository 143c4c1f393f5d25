"""Explorers (What Were We Thinking?): the base deck rearranged, extra bases, and your own minions
on the move. Rulings from the catalog (smashup/cards/catalog/wwwt.yaml, Explorers) and the WWWT
rulebook's clarifications are written next to the cards."""
from smashup.engine import MINION, Faction

explorers = Faction("Explorers", set="wwwt")


def _move_your_minions(ctx, candidates_from=None, to=None):
    """Move any number of your minions (those on `candidates_from` if given), one at a time until
    you stop, each to another base (among `to` if given). A minion moved once is not chosen
    again; alike copies on one base are one option."""
    moved = []
    while True:
        mine = ctx.one_of_each(ctx.targets(
            base=candidates_from, controller=ctx.me, effect=ctx.move,
            where=lambda m: m not in moved))
        count = f" ({len(moved)} moved so far)" if moved else ""
        done = yield from ctx.choose_and_move(mine, f"Move one of your minions?{count}", to=to,
                                              optional=True)
        if done is None:
            return moved
        moved.append(done[0])


def _move_one_of_yours(ctx):
    yield from ctx.choose_and_move(ctx.one_of_each(ctx.targets(controller=ctx.me, effect=ctx.move)),
                                   "Move which of your minions?")


# ------------------------------------------------------------------------------ minions -------
@explorers.minion("Idaho Smith", power=5, text=(
    "On play: you may put the top base of the base deck into play as an extra base. If you do, "
    "move this minion there, and you may move any of your other minions from its old base there "
    "too."))
def idaho_smith(ctx):
    old = ctx.here
    if not ctx.refill_base_deck() or not (yield from ctx.may(
            "Put the top base of the base deck into play as an extra base?")):
        return
    # Rulebook: the extra base is replaced as usual when it scores, so there stays one base more.
    new = [uid for uid in ctx.add_base() if uid != old]
    if not new:
        return
    # Big Base: the base card changes instead and every side has it; Idaho Smith goes to one of
    # the other sides (bigbase/RULINGS.md).
    dest = yield from ctx.choose_base(new, "Move Idaho Smith to which new base?", intent="help",
                                      subject=ctx.card)
    if not (yield from ctx.move(ctx.card, dest)):
        return
    # "Other minions from this minion's old base" go only where Idaho Smith went.
    yield from _move_your_minions(ctx, candidates_from=old, to=[dest])


guide = explorers.minion("Guide", power=4, copies=2, text=(
    "Ongoing: after one of your minions moves for the first time in a turn, it gets +1 power "
    "until the end of the turn."))


def _first_move_seen(ctx, event):
    # "For the first time in a turn" belongs to the minion (issue 24): the move event says
    # which of the minion's moves this turn it is, whether this Guide was in play for the
    # earlier ones or not; two Guides both give +1 (catalog note: +2 with two Guides). An event
    # without that count (a record of resolution 2) is read as then: each Guide noted the
    # minions it had seen move (a turn flag per Guide and per entry into play).
    if not (event.player == ctx.me and ctx.is_minion(event.card) and ctx.in_play(event.card)):
        return False
    move = event.data.get("move_of_turn")
    if move is not None:
        return move == 1
    return not ctx.flag(("guided", ctx.card, ctx.in_play_mark(event.card)), ctx.me)


@guide.trigger("moved", applies=_first_move_seen)
def guide_cheers(ctx, event):
    if event.data.get("move_of_turn") is None:
        ctx.set_flag(("guided", ctx.card, ctx.in_play_mark(event.card)), ctx.me)
    ctx.power_until_end_of_turn(event.card, 1)


crypt_looter = explorers.minion("Crypt Looter", power=3, copies=3, text=(
    "Special: after a new base comes into play (any turn), you may play this minion from your "
    "hand on that base as an extra minion."))


def _looter_can_go(ctx, event):
    return event.base in ctx.bases() and ctx.can_play(ctx.card, event.base)


# Rulebook clarification: a base swapped in (Terraforming) is a new base too: every way a base
# arrives is announced as `base_entered`.
@crypt_looter.special("base_entered", usable=_looter_can_go,
                      label="Play Crypt Looter on the new base")
def crypt_looter_plays(ctx, event):
    yield from ctx.play_minion(ctx.card, event.base)


@explorers.minion("Glory Hound", power=2, copies=4, text=(
    "On play: look at the top two bases of the base deck and put them back on the top and/or "
    "the bottom of the base deck in any order."))
def glory_hound(ctx):
    # Current wording: both on top or both at the bottom is allowed.
    yield from ctx.put_back_bases(ctx.look_at_bases(2))


# ------------------------------------------------------------------------------ actions -------
@explorers.action("Dr Livingstone, I Presume?", text=(
    "Choose a minion in play. If it is the only minion on its base, shuffle it into its owner's "
    "deck."))
def dr_livingstone(ctx):
    target = yield from ctx.choose_minion(
        ctx.one_of_each(ctx.targets(effect=ctx.shuffle_into_deck)),
        "Choose a minion (it is shuffled into its owner's deck if it is alone on its base).",
        intent="harm")
    if target is not None and len(ctx.minions(base=ctx.base_of(target))) == 1:
        yield from ctx.shuffle_into_deck([target])


horrors = explorers.action("Forgotten Horrors", attach="base", text=(
    "Play on a base. Ongoing: after you play a minion here, or play a card that moves any of your "
    "minions here, draw a card and move this action to another base."))


def _brought_here(ctx, event):
    if event.base != ctx.here:
        return False
    if event.kind == "minion_played":
        return event.player == ctx.me
    # Clarifications: a card you played that moves your minions here (several at once: one draw;
    # a talent only in the turn its card was played): the card that moved it was played by you
    # this turn, and this card has not answered it yet.
    return (event.player == ctx.me and event.by_player == ctx.me
            and any(p.card == event.by_card for p in ctx.plays(ctx.me))
            and not ctx.flag(("horrors", ctx.card, event.by_card), ctx.me))


def _horrors_strike(ctx, event):
    if event.kind == "moved":
        ctx.set_flag(("horrors", ctx.card, event.by_card), ctx.me)
    ctx.draw(ctx.me, 1)
    # Mandatory: the action moves on to another base.
    dest = yield from ctx.choose_base([u for u in ctx.bases() if u != ctx.here],
                                      "Move Forgotten Horrors to which base?", intent="help")
    if dest is not None:
        yield from ctx.transfer(ctx.card, dest)


horrors.trigger("minion_played", applies=_brought_here)(_horrors_strike)
horrors.trigger("moved", applies=_brought_here)(_horrors_strike)


@explorers.action("Fortune and Glory", copies=2, text=(
    "Choose a base. You may move up to two minions from there to other bases."))
def fortune_and_glory(ctx):
    uid = yield from ctx.choose_base(ctx.bases(), "Choose a base to move minions from.")
    moved = []
    # Ruling (catalog doubt): each minion picks its own destination.
    for _ in range(2):
        candidates = ctx.one_of_each(ctx.targets(base=uid, effect=ctx.move,
                                                 where=lambda m: m not in moved))
        done = yield from ctx.choose_and_move(candidates, "Move a minion from this base?",
                                              optional=True)
        if done is None:
            return
        moved.append(done[0])


@explorers.action("I Said No Camels!", text=(
    "Choose a base: put a +1 power counter on each of your minions there, or draw a card for each "
    "of your minions there."))
def no_camels(ctx):
    uid = yield from ctx.choose_base(ctx.bases(), "Choose a base.", intent="help")
    counters_or_cards = yield from ctx.choose_one(
        "Your minions there:", [("counters", "A +1 power counter on each"),
                                ("cards", "Draw a card for each")], intent="help")
    if counters_or_cards == "counters":
        for m in ctx.targets(base=uid, controller=ctx.me):
            ctx.add_counters(m, 1)
    else:
        ctx.draw(ctx.me, len(ctx.minions(base=uid, controller=ctx.me)))


@explorers.action("It Belongs in a Museum", text=(
    "Choose two minions on two different bases and swap them: each moves to the other's base."))
def museum(ctx):
    movable = ctx.targets(effect=ctx.move)
    first = yield from ctx.choose_minion(
        ctx.one_of_each([m for m in movable
                         if any(ctx.base_of(o) != ctx.base_of(m) for o in movable)]),
        "Swap which minion?", intent="harm")
    if first is None:  # AEG: with no minion on another base, nothing moves
        return
    here = ctx.base_of(first)
    second = yield from ctx.choose_minion(
        ctx.one_of_each([m for m in movable if ctx.base_of(m) != here]),
        f"Swap {ctx.name(first)} with which minion?", intent="harm")
    there = ctx.base_of(second)
    yield from ctx.move(first, there)
    yield from ctx.move(second, here)


lost_city = explorers.action(
    "Lost City", copies=2, special_only=True, no_effect_in_big_base="replacement", text=(
        "Special: play after a base has scored (any turn). Reveal the top two bases of the base "
        "deck; one of them replaces the scored base, the other goes to the base discard pile. "
        "Then you may play a minion from your hand on the new base as an extra minion."))


@lost_city.special("after_scoring", label="Play Lost City: choose the new base")
def lost_city_played(ctx, scoring):
    # The first claim wins; the scored base's own choice (School of Wizardry) comes first. The
    # extra minion comes all the same (rulebook clarification: even when another ability picks
    # the new base).
    scoring.claim_new_base(ctx.card, ctx.me)
    scoring.after_new_base(ctx.card, ctx.me)


@lost_city.picks_new_base
def lost_city_picks(ctx, scoring):
    top = ctx.reveal_bases(2)
    if not top:
        return None
    picked = yield from ctx.choose_cards(top, "Which base replaces the scored base?",
                                         reveal=top, intent="help")
    ctx.discard_bases([b for b in top if b != picked[0]])
    return picked[0]


@lost_city.on_new_base
def lost_city_settles(ctx, scoring, uid):
    yield from ctx.play_extra_now(MINION, base=uid, optional=True)


@explorers.action("X Never Marks the Spot", text=(
    "Move any number of your minions, each to a base other than its own."))
def x_never_marks_the_spot(ctx):
    # Our reading (catalog note): each minion may go to a different base.
    yield from _move_your_minions(ctx)


archaeology = explorers.action("You Call This Archaeology?", text=(
    "Move one of your minions to another base. Special: you may also play this card just before "
    "or just after a base scores."))


@archaeology.on_played
def archaeology_played(ctx):
    yield from _move_one_of_yours(ctx)


@archaeology.special("before_scoring", label="Play You Call This Archaeology?: move a minion")
def archaeology_before_scoring(ctx, scoring):
    yield from _move_one_of_yours(ctx)


@archaeology.special("after_scoring", label="Play You Call This Archaeology?: move a minion")
def archaeology_after_scoring(ctx, scoring):
    yield from _move_one_of_yours(ctx)
