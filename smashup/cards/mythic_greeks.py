"""Mythic Greeks (It's Your Fault!): heroes that grow each time their player plays an action, and
ten single Favors of the gods.

Rulings (catalog notes, the IYF rulebook's clarifications): Odysseus and Heracles react to every
action, not only the first of a turn ("any player" includes you); Jason and Spartan follow their
errata (once per turn, optional); Jason's base keeps its bonus for minions that arrive later that
turn and a minion that leaves loses it; Argonaut, played as a minion or with an action play, sets
off everything that reacts to you playing an action, and played as an action it is still a minion
(it does not use the minion play)."""
from smashup.engine import ACTION, MINION, Faction

mythic_greeks = Faction("Mythic Greeks", set="iyf")


def _you_played_an_action(ctx, event) -> bool:
    # Every action_played event: a normal play, an extra, a Special, and an Argonaut's play.
    return event.player == ctx.me


def _choose_your_minion(ctx, prompt, optional=False):
    return ctx.choose_minion(ctx.one_of_each(ctx.minions(controller=ctx.me)), prompt,
                             optional=optional, intent="help")


# ------------------------------------------------------------------------------ minions -------
odysseus = mythic_greeks.minion("Odysseus", power=5, text=(
    "Ongoing: after you play an action, put a +1 power counter on one of your minions."))


@odysseus.trigger("action_played", applies=_you_played_an_action)
def odysseus_rewards(ctx, event):
    minion = yield from _choose_your_minion(ctx, "Put a +1 power counter on which of your minions?")
    if minion is not None:
        ctx.add_counters(minion, 1)


heracles = mythic_greeks.minion("Heracles", power=4, text=(
    "Ongoing: after any player (you too) plays an action, this minion has +1 power until the end "
    "of the turn."))


@heracles.trigger("action_played")
def heracles_strengthens(ctx, event):
    ctx.add_power(ctx.card, 1)


jason = mythic_greeks.minion("Jason", power=4, text=(
    "Ongoing: once per turn, after you play an action, you may choose a base: your minions there "
    "have +1 power until the end of the turn (those that arrive later too)."))

JASON_BASE = "jason_base"  # the lasting mark of the base Jason chose this turn


def _jason_ready(ctx, event):
    return _you_played_an_action(ctx, event) and not ctx.flag(("jason", ctx.in_play_mark(ctx.card)))


@jason.trigger("action_played", applies=_jason_ready)
def jason_leads(ctx, event):
    uid = yield from ctx.choose_base(ctx.bases(), "Your minions on which base get +1 power "
                                     "this turn?", optional=True, intent="help")
    if uid is None:
        return  # Declining does not use up the turn's once (our reading: nothing happened).
    ctx.set_flag(("jason", ctx.in_play_mark(ctx.card)))
    ctx.lasting(JASON_BASE, uid, amount=1)


@jason.modifier(local=True)
def jason_bonus(ctx, minion):
    # IYF clarification: a minion that arrives on the chosen base later this turn gets it, one
    # that leaves loses it: read the minion's base now. It is Jason's ongoing ability, so it ends
    # if Jason leaves play (our reading).
    if ctx.controller(minion) != ctx.me:
        return 0
    uid = ctx.base_of(minion)
    return sum(e.amount for e in ctx.lasting_effects(JASON_BASE, uid) if e.source == ctx.card)


spartan = mythic_greeks.minion("Spartan", power=3, copies=3, text=(
    "Ongoing: once per turn, after you play an action (on any player's turn), you may put a +1 "
    "power counter on this minion."))


def _spartan_ready(ctx, event):
    return (_you_played_an_action(ctx, event)
            and not ctx.flag(("spartan", ctx.in_play_mark(ctx.card))))


@spartan.trigger("action_played", applies=_spartan_ready,
                 optional="Put a +1 power counter on this Spartan?")
def spartan_trains(ctx, event):
    ctx.set_flag(("spartan", ctx.in_play_mark(ctx.card)))
    ctx.add_counters(ctx.card, 1)


argonaut = mythic_greeks.minion("Argonaut", power=2, copies=4, text=(
    "On play: this counts as you playing an action for every ability that reacts to one. "
    "Special: whenever you may play an action (the normal one or an extra), you may play this "
    "minion on a base with that play instead."))
argonaut.card.playable_as = (ACTION,)


@argonaut.on_played
def argonaut_sails(ctx):
    ctx.count_as_action_play()


# ------------------------------------------------------------------------------ actions -------
@mythic_greeks.action("Favor of Aphrodite", text="You may play an extra minion this turn.")
def favor_of_aphrodite(ctx):
    yield from ctx.grant_extra(MINION)


@mythic_greeks.action("Favor of Apollo", text=(
    "Draw a card. You may play an extra action this turn."))
def favor_of_apollo(ctx):
    ctx.draw(ctx.me, 1)
    yield from ctx.grant_extra(ACTION)


@mythic_greeks.action("Favor of Ares", text=(
    "One of your minions has +3 power until the end of the turn."))
def favor_of_ares(ctx):
    minion = yield from _choose_your_minion(ctx, "Which of your minions gets +3 power?")
    if minion is not None:
        ctx.add_power(minion, 3)


@mythic_greeks.action("Favor of Athena", text=(
    "Reveal the top 5 cards of your deck. You may put a revealed action into your hand; put the "
    "others back on top of your deck in any order."))
def favor_of_athena(ctx):
    shown = ctx.reveal_top(ctx.me, 5)
    actions = [c for c in shown if ctx.is_action(c)]
    taken = yield from ctx.choose_cards(ctx.one_of_each(actions),
                                        "Put which revealed action into your hand?", 0, 1,
                                        reveal=shown, intent="help")
    for c in taken:
        ctx.place_in_hand(c, revealed=True)
    rest = [c for c in shown if c not in taken]
    ordered = yield from ctx.choose_order(rest, "Which card goes on top of your deck next?",
                                          reveal=rest)
    ctx.put_on_deck(ordered)


@mythic_greeks.action("Favor of Dionysus", text=(
    "One of your minions has +1 power until the end of the turn. You may play an extra action "
    "this turn. Once it has resolved, you may put this card on top of your deck instead of into "
    "your discard pile."))
def favor_of_dionysus(ctx):
    minion = yield from _choose_your_minion(ctx, "Which of your minions gets +1 power?")
    if minion is not None:
        ctx.add_power(minion, 1)
    yield from ctx.grant_extra(ACTION)
    if (yield from ctx.may("Put Favor of Dionysus on top of your deck instead of discarding it?")):
        ctx.after_resolving("deck_top")


@mythic_greeks.action("Favor of Hades", text=(
    "Put an action from your discard pile into your hand (you must if you have one)."))
def favor_of_hades(ctx):
    actions = [c for c in ctx.discard_pile() if ctx.is_action(c)]
    taken = yield from ctx.choose_cards(ctx.one_of_each(actions),
                                        "Put which action from your discard pile into your hand?",
                                        intent="help")
    for c in taken:
        ctx.place_in_hand(c)


@mythic_greeks.action("Favor of Hera", text=(
    "Put a +1 power counter on each of up to two of your minions."))
def favor_of_hera(ctx):
    chosen = []
    for n in range(2):
        left = [m for m in ctx.minions(controller=ctx.me) if m not in chosen]
        minion = yield from ctx.choose_minion(
            ctx.one_of_each(left), f"Put a +1 power counter on which of your minions? "
            f"({n} of 2)", optional=True, intent="help")
        if minion is None:
            break
        chosen.append(minion)
        ctx.add_counters(minion, 1)


@mythic_greeks.action("Favor of Hermes", text="You may play up to two extra actions this turn.")
def favor_of_hermes(ctx):
    yield from ctx.grant_extra(ACTION)
    yield from ctx.grant_extra(ACTION)


@mythic_greeks.action("Favor of Poseidon", text=(
    "Shuffle up to three cards from your discard pile into your deck (none is fine)."))
def favor_of_poseidon(ctx):
    chosen = yield from ctx.choose_any_number(ctx.discard_pile(), "Shuffle which card into your "
                                              "deck (up to three)?", max_count=3, intent="help")
    yield from ctx.shuffle_into_deck(chosen)


@mythic_greeks.action("Favor of Zeus", no_effect_in_big_base="breakpoint", text=(
    "Choose a base: its breakpoint is 5 lower until the end of the turn."))
def favor_of_zeus(ctx):
    uid = yield from ctx.choose_base(ctx.bases(), "Lower the breakpoint of which base by 5?",
                                     intent="help")
    if uid is not None:
        ctx.change_breakpoint(uid, -5)
