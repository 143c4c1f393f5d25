"""Scoring extensions (engine piece K), shown with test-only cards: placement VP changed before
they are given (Great Wyrm, Ruins), "instead of the discard pile" onto the top or the bottom of a
deck in the order the owner picks (Always Room at Granny's, Retirement Community), and a Special
that picks the base replacing the scored one and acts once it is in play (Lost City)."""
from __future__ import annotations

from smashup.engine import MINION, Faction, Scenario, replay
from smashup.engine.registry import Registry
from smashup.engine.testing import assert_refused, card, choose, decline, labels, record_events

from .support import registry_with_test_cards


def _registry() -> Registry:
    r = registry_with_test_cards()
    surveyors = Faction("Surveyors", set="testset", registry=r)

    keeper = surveyors.minion("Toll Keeper", power=10, text=(
        "Ongoing: when this base scores, each other player gets 1 VP less for their place."))

    @keeper.modifies_placement_vp
    def keeper_toll(ctx, scoring, seat):
        return -1 if ctx.here == scoring.base and seat != ctx.me else 0

    gate = surveyors.action("Toll Gate", attach="base", text=(
        "Attach to a base. Ongoing: when this base scores, each other player gets 1 VP less "
        "for their place."))

    @gate.modifies_placement_vp
    def gate_toll(ctx, scoring, seat):
        return -1 if ctx.here == scoring.base and seat != ctx.me else 0

    surveyors.minion("Porter", power=1, copies=3, text="No ability.")
    homecoming = surveyors.action("Homecoming", special_only=True, text=(
        "Special: after a base scores, each of your minions there goes onto your deck, on the "
        "top or the bottom as you choose, instead of the discard pile."))

    @homecoming.special("after_scoring", label="Play Homecoming")
    def homecoming_sends(ctx, scoring):
        for m in ctx.minions(base=scoring.base, controller=ctx.me,
                             where=lambda m: m not in scoring.instead):
            end = yield from ctx.choose_one(f"Where does {ctx.name(m)} go?",
                                            [("deck_top", "Top"), ("deck_bottom", "Bottom")])
            scoring.redirect(m, end)

    map_room = surveyors.action("Map Room", special_only=True, text=(
        "Special: after a base scores, reveal the top two bases; one replaces it, the other is "
        "discarded. Then you may play an extra minion there."))

    @map_room.special("after_scoring", label="Play Map Room")
    def map_room_claims(ctx, scoring):
        scoring.claim_new_base(ctx.card, ctx.me)
        scoring.after_new_base(ctx.card, ctx.me)

    @map_room.picks_new_base
    def map_room_picks(ctx, scoring):
        top = ctx.reveal_bases(2)
        if not top:
            return None
        picked = yield from ctx.choose_cards(top, "Which base replaces it?", reveal=top)
        ctx.discard_bases([b for b in top if b != picked[0]])
        return picked[0]

    @map_room.on_new_base
    def map_room_settles(ctx, scoring, uid):
        yield from ctx.play_extra_now(MINION, base=uid)

    return r


REG = _registry()
SURVEYORS = ("Surveyors", "Aliens")


def table(*, minions, players=3, hand=(), base_deck=("Filler Field",), actions=()):
    """The Test Arena (15; VP 3, 2, 1) ready to score in seat 0's turn, with `minions`
    ((name, owner) pairs) and base `actions` on it; seat 0 holds `hand`."""
    s = Scenario([SURVEYORS, ("Ninjas", "Robots"), ("Pirates", "Wizards")][:players])
    arena = s.base("Test Arena")
    other = s.base("Filler Field")
    s.base_deck(*base_deck)
    for name, owner in minions:
        s.minion(arena, name, owner=owner)
    for name, owner in actions:
        s.base_action(arena, name, owner)
    s.minion(other, "Porter", owner=1)
    s.hand(0, *hand, "Porter")
    for seat in range(players):
        s.deck(seat, "Tiger Assassin", "Tiger Assassin")
    s.turn(current=0, phase="score")
    return s.build(REG)


# ---------------------------------------------------------------- placement VP modifiers ---
def test_a_placement_vp_modifier_lowers_other_players_vp_before_they_are_given():
    game = table(minions=[("Toll Keeper", 0), ("Tiger Assassin", 1), ("Collector", 2)])
    # 1st: seat 0 (10) keeps its 3; 2nd: seat 1 (4) gets 2 - 1; 3rd: seat 2 (2) gets 1 - 1 = 0.
    assert [p.vp for p in game.players] == [3, 1, 0]


def test_several_modifiers_add_up_and_never_take_vp_below_zero():
    game = table(minions=[("Toll Keeper", 0), ("Tiger Assassin", 1), ("Collector", 2)],
                 actions=[("Toll Gate", 0)])
    # Each card applies its own -1 (the IYF catalog note): 2 - 2 = 0 and 1 - 2 is 0, not -1.
    assert [p.vp for p in game.players] == [3, 0, 0]
    assert any("gains no VP" in text for text, _ in game.log_lines)


def test_a_modifier_on_another_base_does_not_change_this_one():
    s = Scenario([SURVEYORS, ("Ninjas", "Robots")])
    arena = s.base("Test Arena")
    other = s.base("Filler Field")
    s.base_deck("Filler Field")
    s.minion(arena, "Tiger Assassin", owner=0, counters=8)
    s.minion(arena, "Tiger Assassin", owner=1)
    s.minion(other, "Toll Keeper", owner=0)
    s.hand(0, "Porter")
    s.turn(current=0, phase="score")
    game = s.build(REG)
    assert [p.vp for p in game.players] == [3, 2]


def test_vp_an_ability_gives_are_not_changed():
    # Curtain Call (a test-only Special: gain 1 VP after a base scores) gives VP by an ability,
    # which the modifier leaves alone (IYF clarification on Great Wyrm and Ruins).
    s = Scenario([SURVEYORS, ("Testers", "Ninjas")])
    arena = s.base("Test Arena")
    s.base("Filler Field")
    s.base_deck("Filler Field")
    s.minion(arena, "Toll Keeper", owner=0)
    s.minion(arena, "Tiger Assassin", owner=1)
    s.minion(arena, "Collector", owner=1)
    s.hand(0, "Porter")
    s.hand(1, "Curtain Call")
    s.turn(current=0, phase="score")
    game = s.build(REG)
    assert [p.vp for p in game.players] == [3, 1]
    choose(game, "Curtain Call")
    assert [p.vp for p in game.players] == [3, 2]


# ------------------------------------------------------- "instead" onto the top of the deck ---
def _homecoming_table():
    game = table(minions=[("Porter", 0), ("Collector", 0), ("Toll Keeper", 0),
                          ("Tiger Assassin", 1)], players=2, hand=["Homecoming"])
    assert game.pending.kind == "special"
    choose(game, "Homecoming")
    return game


def test_cards_sent_onto_one_end_of_a_deck_go_in_the_order_their_owner_picks():
    game = _homecoming_table()
    porter, collector, keeper = (card(game, "Porter", "minion"), card(game, "Collector"),
                                 card(game, "Toll Keeper"))
    choose(game, "Top")      # Porter
    choose(game, "Top")      # Collector
    choose(game, "Bottom")   # Toll Keeper
    events = record_events(game)
    # Step 7: two cards go onto the top of seat 0's deck: its owner picks them one at a time.
    assert game.pending.seat == 0 and game.pending.kind == "cards"
    assert sorted(labels(game)) == ["Collector", "Porter"]
    choose(game, "Collector")   # placed first: Porter ends on top of it
    # Then seat 0 draws its 2 cards at the end of the turn: the top of the deck, top first.
    assert game.players[0].hand[-2:] == [porter, collector]
    assert game.players[0].deck[-1] == keeper
    assert game.loc[card(game, "Tiger Assassin", "discard")][0] == "discard"
    placed = {e.card: e.data["to"] for e in events if e.kind == "placed"}
    assert placed == {porter: "deck_top", collector: "deck_top", keeper: "deck_bottom"}
    assert not any(e.kind == "discarded" and e.card in placed for e in events)


def test_the_order_question_refuses_a_card_not_being_placed():
    game = _homecoming_table()
    for answer in ("Top", "Top", "Top"):
        choose(game, answer)
    assert_refused(game, ["c999"])
    assert_refused(game, [f"c{card(game, 'Tiger Assassin', 'minion')}"])
    # Three cards onto the top: two questions, the third card goes last (on top).
    choose(game, "Porter")
    choose(game, "Toll Keeper")
    # Collector went last, so it is the top card: seat 0 then draws it and Toll Keeper.
    assert game.players[0].hand[-2:] == [card(game, "Collector"), card(game, "Toll Keeper")]
    assert game.players[0].deck[0] == card(game, "Porter", "deck")


def test_a_single_card_onto_a_deck_needs_no_order_question():
    game = table(minions=[("Toll Keeper", 0), ("Tiger Assassin", 1), ("Collector", 1)], players=2,
                 hand=["Homecoming"])
    choose(game, "Homecoming")
    events = record_events(game)
    choose(game, "Top")
    assert game.players[0].hand[-2] == card(game, "Toll Keeper")  # drawn from the top
    assert [e.data["to"] for e in events if e.kind == "placed"] == ["deck_top"]
    assert game.pending.kind == "play"  # no order question: the game went on


def test_a_game_with_deck_placements_replays_to_the_same_state():
    game = _homecoming_table()
    for answer in ("Top", "Top", "Bottom", "Collector"):
        choose(game, answer)
    again = replay(game.record(), REG)
    assert again.digest() == game.digest()


# ------------------------------------------------------------- a Special picks the new base ---
def _map_room_table(base_deck=("Filler Field", "Observatory", "Listening Post")):
    game = table(minions=[("Toll Keeper", 0), ("Tiger Assassin", 1), ("Collector", 1)], players=2,
                 hand=["Map Room"], base_deck=base_deck)
    choose(game, "Map Room")
    return game


def test_a_special_picks_the_replacing_base_in_step_9_and_acts_once_it_is_in_play():
    game = _map_room_table()
    # Step 9: the two top bases are revealed; seat 0 picks one, the other is discarded.
    assert game.pending.seat == 0 and sorted(labels(game)) == ["Filler Field", "Observatory"]
    assert_refused(game, [f"c{card(game, 'Listening Post')}"])
    choose(game, "Observatory")
    names = [game.name(s.card) for s in game.bases]
    assert names == ["Observatory", "Filler Field"]
    assert game.name(game.base_discard[-1]) == "Filler Field"  # the other revealed base
    assert game.name(game.base_deck[0]) == "Listening Post"
    # Then the extra minion onto the new base, which may be declined.
    assert game.pending.seat == 0 and any("Porter" in label for label in labels(game))
    choose(game, "Porter")
    assert game.loc[card(game, "Porter", "minion")] == ("minion", game.bases[0].uid)


def test_the_extra_minion_may_be_declined():
    game = _map_room_table()
    choose(game, "Filler Field")
    decline(game)
    assert game.loc[card(game, "Porter", "hand")][0] == "hand"


def test_the_first_claim_picks_and_the_second_still_acts_on_the_new_base():
    game = table(minions=[("Toll Keeper", 0), ("Tiger Assassin", 1), ("Collector", 1)], players=2,
                 hand=["Map Room", "Map Room"],
                 base_deck=("Filler Field", "Observatory", "Listening Post"))
    choose(game, "Map Room")
    choose(game, "Map Room")
    # One pick (two revealed bases), then two extra minion plays onto the new base.
    choose(game, "Observatory")
    uid = game.bases[0].uid
    choose(game, "Porter")
    assert game.loc[card(game, "Porter", "minion")] == ("minion", uid)
    assert game.name(game.base_deck[0]) == "Listening Post"


def test_the_scored_bases_own_choice_comes_first():
    s = Scenario([SURVEYORS, ("Ninjas", "Robots")])
    school = s.base("School of Wizardry")
    s.base("Filler Field")
    s.base_deck("Filler Field", "Observatory", "Listening Post", "Test Arena")
    s.minion(school, "Toll Keeper", owner=0, counters=12)
    s.hand(0, "Map Room", "Porter")
    s.turn(current=0, phase="score")
    game = s.build(REG)
    choose(game, "Map Room")
    # School of Wizardry's winner (seat 0) picks from the top 3; Map Room reveals nothing.
    choose(game, "Listening Post")
    choose(game, "Filler Field")
    assert game.name(game.bases[0].card) == "Listening Post"
    assert not any("reveals" in text for text, _ in game.log_lines)
    choose(game, "Porter")  # Map Room's extra minion still goes onto the new base
    assert game.loc[card(game, "Porter", "minion")] == ("minion", game.bases[0].uid)


def test_the_claims_are_state_and_replay():
    game = _map_room_table()
    again = replay(game.record(), REG)
    assert again.digest() == game.digest()
    sc = game.scoring_stack[-1]
    before = game.digest()
    sc.on_new_base.append((0, 0))
    assert game.digest() != before
