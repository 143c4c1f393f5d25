"""Shared instruments of the rules tests: a test registry with tiny test-only cards and bases, a
snapshot of everything a refused choice must leave alone, and a bot driver.

The test registry holds every real card and base (Aliens, Ninjas, the Core bases) plus test-only
content that no real game can reach: it lives in its own `Registry`, never in `REGISTRY`.
"""
from __future__ import annotations

import random

import smashup.cards  # noqa: F401  (fills REGISTRY)
from smashup.engine import ACTION, MINION, REGISTRY, Faction, base
from smashup.engine.bots import random_choice
from smashup.engine.invariants import check
from smashup.engine.registry import Registry
from smashup.engine.testing import snapshot  # noqa: F401  (re-exported for the rules tests)

# Each faction is in a game once (the engine refuses a config or scenario that repeats one).
ALIENS_NINJAS = ("Aliens", "Ninjas")
PIRATES_ROBOTS = ("Pirates", "Robots")
WIZARDS_ZOMBIES = ("Wizards", "Zombies")
DINOSAURS_TRICKSTERS = ("Dinosaurs", "Tricksters")
DISJOINT_PAIRS = (ALIENS_NINJAS, PIRATES_ROBOTS, WIZARDS_ZOMBIES, DINOSAURS_TRICKSTERS)
# Four players need five bases: the implemented Core bases plus a test-only filler base.
WITH_FILLER = ["core", "core-filler"]
EVENT_KINDS = ("minion_played", "action_played", "destroyed", "returned", "moved", "placed",
               "discarded", "transferred", "cancelled")


def registry_with_test_cards() -> Registry:
    """A new registry holding everything of TEST_REGISTRY, for a test file to add its own test-only
    cards to without touching the shared one."""
    r = Registry()
    r.cards.update(TEST_REGISTRY.cards)
    r.bases.update(TEST_REGISTRY.bases)
    r.factions.update(TEST_REGISTRY.factions)
    return r


def note_ran(ctx, text: str) -> None:
    """Test-only: note that an ability ran (in order), on the test game (`game.ran`)."""
    ctx.game.__dict__.setdefault("ran", []).append(text)


def two_player_config(**options) -> dict:
    config = {"players": [{"factions": list(ALIENS_NINJAS)}, {"factions": list(PIRATES_ROBOTS)}]}
    config.update(options)
    return config


def config_for(n: int, **options) -> dict:
    # Past four seats (a refused config) the pairs repeat: the seat count is refused first.
    config = {"players": [{"factions": list(DISJOINT_PAIRS[i % 4])} for i in range(n)]}
    config.update(options)
    return config


def _seen(game) -> list:
    # Where the recording base writes: a plain attribute of this test game.
    return game.__dict__.setdefault("seen", [])


def seen(game) -> list[tuple[str, str | None]]:
    """(event kind, card name) of every event the Observatory saw, in order."""
    return list(_seen(game))


def build_test_registry() -> Registry:
    r = Registry()
    r.cards.update(REGISTRY.cards)
    r.bases.update(REGISTRY.bases)
    r.factions.update(REGISTRY.factions)

    # A fifth Core base so that four players (five bases) can play while only four real Core bases
    # are implemented. No ability.
    base("Filler Field", "core-filler", 20, (3, 2, 1), text="No ability.", registry=r)

    testers = Faction("Testers", set="testset", registry=r)
    base("Test Arena", "testset", 15, (3, 2, 1), text="No ability.", registry=r)

    @testers.action("Pep Talk", text="A minion gets +3 power until the end of the turn.")
    def pep_talk(ctx):
        target = yield from ctx.choose_minion(ctx.targets(), "Which minion gets +3 power?")
        if target is not None:
            ctx.power_until_end_of_turn(target, 3)

    reader = testers.minion("Bookworm", power=1, text="Talent: draw a card.")

    @reader.talent_ability()
    def bookworm_reads(ctx):
        ctx.draw(ctx.me, 1)

    night_reader = testers.minion("Night Owl", power=1, text=(
        "Ongoing: at the end of each turn, its controller draws three cards."))

    @night_reader.trigger("turn_end")
    def night_owl_reads(ctx, event):
        ctx.draw(ctx.me, 3)

    @testers.action("Double Feature", text="Play an extra minion and an extra action this turn.")
    def double_feature(ctx):
        yield from ctx.grant_extra(MINION)
        yield from ctx.grant_extra(ACTION)

    @testers.action("Encore", text="Play two extra actions this turn.")
    def encore(ctx):
        yield from ctx.grant_extra(ACTION)
        yield from ctx.grant_extra(ACTION)

    # -- Decks (WWWT Phase 4: an empty deck takes the shuffled discard pile to draw, reveal,
    # search for or look at a card). One card for each of the deck words of the vocabulary.
    @testers.action("Crystal Ball", text=(
        "Look at the top two cards of your deck and put them back in any order."))
    def crystal_ball(ctx):
        seen_cards = ctx.look_at_top(ctx.me, 2)
        order = yield from ctx.choose_order(seen_cards, "Which card goes back on top?",
                                            reveal=seen_cards)
        ctx.put_on_deck(order)

    @testers.action("Town Crier", text=(
        "Reveal the top card of your deck. If it is a minion, put it into your hand."))
    def town_crier(ctx):
        for c in ctx.reveal_top(ctx.me, 1):
            if ctx.is_minion(c):
                ctx.place_in_hand(c, revealed=True)

    @testers.action("Treasure Map", text=(
        "Search your deck for a minion, reveal it and put it into your hand. Shuffle your deck."))
    def treasure_map(ctx):
        yield from ctx.search_deck("Which minion do you take?",
                                   where=ctx.is_minion, min_count=1)

    # -- Transfer (WWWT "Transfer"): an attached action or power counters go to another card.
    @testers.action("Hand-Me-Down", text=(
        "Transfer an action attached to a minion or a base to another host of the same kind."))
    def hand_me_down(ctx):
        g = ctx.game
        attached = [a for a in g.action_state]
        picked = yield from ctx.choose_cards(sorted(attached), "Transfer which action?")
        if not picked:
            return
        a = picked[0]
        if g.action_state[a].host_kind == "minion":
            to = yield from ctx.choose_minion(
                ctx.targets(where=lambda m: m != g.action_state[a].host), "Onto which minion?")
        else:
            to = yield from ctx.choose_base(
                ctx.bases(lambda u: u != g.action_state[a].host), "Onto which base?")
        if to is not None:
            yield from ctx.transfer(a, to)

    @testers.action("Siphon", text=(
        "Transfer up to two power counters from one minion to another."))
    def siphon(ctx):
        g = ctx.game
        source = yield from ctx.choose_minion(
            ctx.targets(where=lambda m: g.minion_state[m].counters > 0), "Take counters from?")
        if source is None:
            return
        to = yield from ctx.choose_minion(ctx.targets(where=lambda m: m != source),
                                          "Give them to which minion?")
        if to is not None:
            yield from ctx.transfer(source, to, counters=2)

    # -- The Special windows that no real card of the implemented sets uses yet.
    curtain_call = testers.action("Curtain Call", special_only=True, text=(
        "Special: after a base scores, play this action: gain 1 VP."))

    @curtain_call.special("after_scoring", label="Play Curtain Call: gain 1 VP")
    def curtain_call_bow(ctx, scoring):
        ctx.gain_vp(ctx.me, 1)

    early_bird = testers.action("Early Bird", special_only=True, text=(
        "Special: at the start of a turn, play this action: gain 1 VP."))

    @early_bird.special("turn_start", label="Play Early Bird: gain 1 VP")
    def early_bird_sings(ctx, _):
        ctx.gain_vp(ctx.me, 1)

    # A minion played at the start of the turn, before the Play Cards phase (Ninja Acolyte's
    # ruling: such minions do not count as "played a minion this turn").
    riser = testers.minion("Early Riser", power=1, text=(
        "Ongoing: at the start of your turn, you may play an extra minion."))

    @riser.trigger("turn_start", applies=lambda ctx, e: e.player == ctx.me)
    def early_riser_wakes(ctx, event):
        yield from ctx.grant_extra(MINION)

    # Only actions: every opening hand lacks a minion, so the mulligan is always offered.
    paper = Faction("Paper Pushers", set="testset", registry=r)
    paper.action("Memo", copies=20, text="No effect.")
    clerks = Faction("Clerks", set="testset", registry=r)
    clerks.action("Form", copies=20, text="No effect.")
    # A second all-action pair for the other seat: each faction is in a game once.
    filers = Faction("Filers", set="testset", registry=r)
    filers.action("File", copies=20, text="No effect.")
    stampers = Faction("Stampers", set="testset", registry=r)
    stampers.action("Stamp", copies=20, text="No effect.")

    # The recorder: a base with no rule of its own that notes every event of the game, in the
    # order the events are announced. It notes them when the reactions to a batch are gathered
    # (its trigger's `applies`, asked once per event) and never reacts itself, so it adds no
    # reaction for the current player to order (CR step 3 orders all reactions to a batch).
    observatory = base("Observatory", "testset", 99, (1, 1, 1), text="Notes every event.",
                       registry=r)
    for kind in EVENT_KINDS:
        def note(ctx, event, kind=kind):
            name = ctx.game.name(event.card) if event.card is not None else None
            _seen(ctx.game).append((kind, name))
            return False

        observatory.trigger(kind, applies=note)(lambda ctx, event: None)

    # A recorder that reacts: each event it notes is a reaction of its own, ordered with the
    # other reactions to its batch like any card's (for tests of the Card Resolution Order).
    post = base("Listening Post", "testset", 99, (1, 1, 1), text="Reacts to every event.",
                registry=r)
    for kind in EVENT_KINDS:
        def listen(ctx, event, kind=kind):
            name = ctx.game.name(event.card) if event.card is not None else None
            _seen(ctx.game).append((kind, name))

        post.trigger(kind)(listen)

    # The loop: after a minion is moved onto Ping it moves to Pong, and back again. Without the
    # finite-abilities cap (game.TRIGGER_LIMIT) this would never end.
    for here, there in (("Ping", "Pong"), ("Pong", "Ping")):
        bdef = base(here, "loop", 99, (1, 1, 1), text=f"After a minion moves here, move it to {there}.",
                    registry=r)

        def bounce(ctx, event, there=there):
            target = next(s.uid for s in ctx.game.bases if ctx.game.name(s.card) == there)
            yield from ctx.move(event.card, target)

        bdef.trigger("moved", applies=lambda ctx, e: e.base == ctx.here)(bounce)
    return r


TEST_REGISTRY = build_test_registry()


def run_random(game, seed: int, max_steps: int = 3000, checks: bool = True) -> int:
    """Play random legal choices to the end (or `max_steps`); assert the invariants after each."""
    rng = random.Random(seed)
    steps = 0
    while game.pending is not None and steps < max_steps:
        before = [p.vp for p in game.players]
        d = game.pending
        game.apply(d.seat, d.id, random_choice(game, rng))
        steps += 1
        if checks:
            problems = check(game, before)
            assert not problems, (steps, problems)
    return steps
