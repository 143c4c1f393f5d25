"""Card Resolution Order and Me First! (WWWT p.5-7, CR "Card Resolution Order"): the card played
resolves first, then reactions in play in the current player's order, then Specials from hand from
the current player clockwise until all pass in sequence, then the action is discarded; extra plays
outside the Play Cards phase are now or never; "fast" and "ask" Special windows."""
from __future__ import annotations

from smashup.engine import Scenario, replay
from smashup.engine.testing import card, choose, labels, play

from .support import ALIENS_NINJAS, DISJOINT_PAIRS, PIRATES_ROBOTS, TEST_REGISTRY, seen


def score_window(current=0, players=3, specials="fast", hands=None, shinobi=True) -> Scenario:
    """`current`'s Score Bases phase with the Ninja Dojo ready (seat `current` alone there)."""
    s = Scenario(list(DISJOINT_PAIRS[:players]),
                 specials=specials)
    dojo = s.base("Ninja Dojo")
    s.base("Temple of Goju")
    s.base_deck("The Homeworld")
    s.minion(dojo, "Collector", owner=current, counters=16)
    for seat in range(players):
        s.deck(seat, *["Tiger Assassin"] * 4)
        s.hand(seat, *(hands or {}).get(seat, ["Collector"]))
    # A window opens only in a game that holds a card usable in it (here a Shinobi deep in a
    # deck): which cards a game holds follows from the factions, which everyone knows.
    if shinobi:
        s.deck(0, "Shinobi")
    s.turn(current=current, phase="score")
    return s


def answer_window(game, plan):
    """Answer Special decisions from `plan` (a list of (seat, "pass" or label fragment)) and return
    the seats asked, in order, until the window is over."""
    asked = []
    for seat, answer in plan:
        d = game.pending
        assert d.kind == "special", (d.kind, asked)
        asked.append(d.seat)
        assert d.seat == seat, (asked, plan)
        choose(game, answer)
    return asked


# ---------------------------------------------------------------------------- Me First! ---
def test_specials_are_offered_from_the_current_player_clockwise():
    # Current seat 1 holds nothing usable (fast mode skips it); then seat 2, then seat 0.
    hands = {0: ["Hidden Ninja", "Collector"], 2: ["Hidden Ninja", "Collector"]}
    game = score_window(current=1, hands=hands).build()
    answer_window(game, [(2, "pass"), (0, "pass")])
    # Every player passed in sequence: the window is closed and the Dojo scores for seat 1.
    assert game.players[1].vp == 2
    assert (game.pending.seat, game.pending.kind) == (1, "target")  # the Dojo's winner


def test_a_player_who_passed_may_act_after_another_player_used_a_special():
    hands = {0: ["Hidden Ninja", "Tiger Assassin"], 1: ["Shinobi"]}
    game = score_window(current=0, players=2, hands=hands).build()
    answer_window(game, [(0, "pass"), (1, "Shinobi")])
    # Seat 1's Shinobi reopened the round: seat 0 is asked again, and now plays Hidden Ninja.
    answer_window(game, [(0, "Hidden Ninja")])
    assert game.pending.kind == "extra" and game.pending.seat == 0
    choose(game, "Tiger Assassin")
    # The Tiger Assassin may destroy a minion of power 3 or less there: the Shinobi.
    assert game.pending.kind == "target"
    choose(game, "Shinobi")
    # Nobody holds another usable Special: the window closes without more questions and the base
    # scores: seat 0 (18 + 4) alone.
    assert [p.vp for p in game.players] == [2, 0]
    assert [game.name(c) for c in game.players[1].discard] == ["Shinobi"]
    assert game.loc[card(game, "Hidden Ninja")] == ("discard", 0)


def test_ask_mode_asks_every_player_in_every_window_even_without_specials():
    game = score_window(current=2, players=3, specials="ask").build()
    d = game.pending
    assert labels(game) == ["Pass"] and d.min_count == 1  # a real question with a single answer
    answer_window(game, [(2, "pass"), (0, "pass"), (1, "pass")])
    assert game.players[2].vp == 2


def test_fast_mode_asks_nobody_when_nobody_holds_a_usable_special():
    game = score_window(current=2, players=3, specials="fast").build()
    assert game.players[2].vp == 2
    assert (game.pending.seat, game.pending.kind) == (2, "target")
    assert not any(c[2] == ["pass"] for c in game.choices)


def test_no_window_opens_in_a_game_without_a_card_usable_in_it():
    game = score_window(current=2, players=3, specials="ask", shinobi=False).build()
    assert game.players[2].vp == 2
    assert (game.pending.seat, game.pending.kind) == (2, "target")


def test_ask_mode_window_reopens_after_a_special_and_ends_after_all_pass_in_sequence():
    hands = {1: ["Shinobi", "Collector"]}
    game = score_window(current=0, players=2, specials="ask", hands=hands).build()
    asked = answer_window(game, [(0, "pass"), (1, "Shinobi"), (0, "pass")])
    assert asked == [0, 1, 0]
    # Seat 1 passed last time through its Shinobi; now it passes, and both have passed in a row.
    answer_window(game, [(1, "pass")])
    assert game.pending.kind != "special"
    assert [p.vp for p in game.players] == [2, 3]


# ---------------------------------------------------------------------------- extras now or never ---
def homeworld_window(current=0, hands=None, specials="fast") -> Scenario:
    s = Scenario([ALIENS_NINJAS, PIRATES_ROBOTS], specials=specials)
    home = s.base("The Homeworld")  # 23
    s.base("Temple of Goju")
    s.base_deck("The Mothership")
    s.minion(home, "Collector", owner=current, counters=21)
    for seat in range(2):
        s.deck(seat, *["Tiger Assassin"] * 4)
        s.hand(seat, *(hands or {}).get(seat, ["Collector"]))
    s.turn(current=current, phase="score")
    return s


def test_an_extra_play_outside_the_play_phase_must_be_used_at_once_or_is_lost():
    # Seat 1 plays a Shinobi on the scoring Homeworld during seat 0's turn; the Homeworld offers it
    # an extra minion of power 2 or less, to play now or never (CR "extra", WWWT "Extra").
    hands = {1: ["Shinobi", "Ninja Acolyte", "Supreme Overlord"]}
    game = homeworld_window(hands=hands).build()
    choose(game, "Shinobi")
    d = game.pending
    assert (d.seat, d.kind, d.min_count) == (1, "extra", 0)
    assert {game.name(o.card) for o in d.options} == {"Ninja Acolyte"}  # power 2 or less
    choose(game)  # decline: it is lost
    assert game.loc[card(game, "Ninja Acolyte")] == ("hand", 1)
    assert not any(g.source == "The Homeworld" for g in game.turn_state.grants)
    # The Homeworld scores: seat 0 (23) first, seat 1 (3) second.
    assert [p.vp for p in game.players] == [4, 2]


def test_the_same_extra_in_the_play_phase_is_banked_for_the_phase():
    s = Scenario([ALIENS_NINJAS, PIRATES_ROBOTS])
    s.base("The Homeworld")
    s.base("Temple of Goju")
    s.hand(0, "Invader", "Collector", "Beam Up")
    game = s.build()
    play(game, "Invader", base="The Homeworld")
    # Banked: no question now; the phase goes on with one more minion of power 2 or less.
    assert game.pending.kind == "play"
    extras = [g for g in game.turn_state.grants if not g.free]
    assert [(g.kind, g.max_power, g.source) for g in extras] == [("minion", 2, "The Homeworld")]
    assert {game.name(o.card) for o in game.pending.options if o.value[0] == "minion"} == {
        "Collector"}


def test_an_extra_play_used_at_once_outside_the_play_phase():
    hands = {1: ["Shinobi", "Ninja Acolyte"]}
    game = homeworld_window(hands=hands).build()
    choose(game, "Shinobi")
    choose(game, "Ninja Acolyte on Temple of Goju")
    assert game.base_of(card(game, "Ninja Acolyte")) == game.bases[1].uid
    assert [p.vp for p in game.players] == [4, 2]


# ---------------------------------------------------------------------------- resolution order ---
def observatory_game(hand, factions=(ALIENS_NINJAS, PIRATES_ROBOTS)) -> tuple:
    s = Scenario(list(factions))
    s.base("The Homeworld")
    s.base("Listening Post")  # reacts to every event, noting it
    s.base("Temple of Goju")
    s.hand(0, *hand)
    s.hand(1, "Collector")
    for seat in range(2):
        s.deck(seat, *["Tiger Assassin"] * 4)
    return s


def test_the_card_played_resolves_before_the_reactions_then_the_current_player_orders_them():
    s = observatory_game(["Collector", "Beam Up"])
    s.minion(0, "Scout", owner=1)
    game = s.build(TEST_REGISTRY)
    play(game, "Collector", base="The Homeworld")
    # Step 1: the Collector's own ability first (nothing has reacted to its play yet).
    assert game.pending.kind == "target" and seen(game) == []
    choose(game)  # return nothing
    # Step 3: the Homeworld and the Listening Post both react: the current player picks the order.
    d = game.pending
    assert (d.seat, d.kind) == (0, "order")
    assert sorted(o.label for o in d.options) == ["Listening Post", "The Homeworld"]
    choose(game, "The Homeworld")
    assert seen(game) == [("minion_played", "Collector")]
    assert game.pending.kind == "play"


def test_an_action_is_discarded_only_after_the_reactions_to_it():
    s = observatory_game(["Beam Up"])
    s.minion(2, "Scout", owner=1)
    game = s.build(TEST_REGISTRY)
    zones = []
    beam = card(game, "Beam Up")
    # Spy on the recorder's moment: where is Beam Up while the reactions run?
    original = game.run_reactions

    def spy(reactions, extra=()):
        # One batch: the reactions to both events of Beam Up's resolution come together.
        if reactions:
            zones.append(([event.kind for _, _, event in reactions], game.loc[beam][0]))
        return original(reactions, extra)

    game.run_reactions = spy
    play(game, "Beam Up")  # the Scout is the only minion: returned at once
    # The post reacts to both events of the batch: the current player orders them.
    assert game.pending.kind == "order"
    assert labels(game) == ["Listening Post: after Scout is returned (Temple of Goju)",
                            "Listening Post: after Beam Up is played"]
    choose(game, "returned")
    assert seen(game) == [("returned", "Scout"), ("action_played", "Beam Up")]
    assert zones == [(["returned", "action_played"], "resolving")]
    assert game.loc[beam] == ("discard", 0)


# ---------------------------------------------------------------------------- the other windows ---
# "After scoring" (CR Phase 3 step 6) and "start of turn" windows work like "before scoring": from
# the current player clockwise, each uses a Special or passes, until all pass in sequence. No real
# card of the implemented sets uses them yet: the test-only Curtain Call and Early Bird do.
TESTERS = ("Testers", "Aliens")


def window_table(current, specials, special, phase):
    """Three players, seat `current` to move; seats 0 and 2 hold `special`. In the "score" phase
    the Test Arena (15, no ability) is ready, with seat `current` alone there."""
    s = Scenario([TESTERS, ("Ninjas", "Robots"), ("Pirates", "Wizards")], specials=specials)
    arena = s.base("Test Arena")
    s.base("Filler Field")
    s.base_deck("Filler Field")  # the Arena's replacement (a second copy, by name)
    if phase == "score":
        s.minion(arena, "Collector", owner=current, counters=13)
    for seat in range(3):
        s.deck(seat, *["Tiger Assassin"] * 4)
        s.hand(seat, *([special] if seat != current else []), "Collector")
    s.turn(current=current, phase=phase)
    return s.build(TEST_REGISTRY)


def test_after_scoring_specials_fast_mode_from_the_current_player_until_all_pass_in_a_row():
    game = window_table(1, "fast", "Curtain Call", "score")
    arena = game.bases[0]
    # The base has scored (seat 1 has its VP) and its cards are still on it.
    assert game.players[1].vp == 3 and arena.minions
    # Seat 1 holds nothing usable (skipped); seat 2 passes; seat 0 plays; then seat 2 is asked
    # again, passes, and seat 0 (nothing left) is skipped: everyone has passed in a row.
    asked = answer_window(game, [(2, "pass"), (0, "Curtain Call"), (2, "pass")])
    assert asked == [2, 0, 2]
    assert game.pending.kind != "special"
    assert [p.vp for p in game.players] == [1, 3, 0]
    assert game.loc[card(game, "Curtain Call", "discard")] == ("discard", 0)
    assert game.loc[card(game, "Curtain Call", "hand")] == ("hand", 2)
    assert game.slot_or_none(arena.uid) is None  # then the cards were put away, the base replaced


def test_after_scoring_specials_ask_mode_asks_everyone_until_all_pass_in_a_row():
    game = window_table(1, "ask", "Curtain Call", "score")
    assert labels(game) == ["Pass"]  # seat 1 holds no Special but is asked all the same
    asked = answer_window(game, [(1, "pass"), (2, "pass"), (0, "Curtain Call"), (1, "pass"),
                                 (2, "pass")])
    assert asked == [1, 2, 0, 1, 2]
    assert (game.pending.seat, labels(game)) == (0, ["Pass"])
    answer_window(game, [(0, "pass")])
    assert game.pending.kind != "special"
    assert [p.vp for p in game.players] == [1, 3, 0]


def test_start_of_turn_specials_fast_mode_from_the_current_player_until_all_pass_in_a_row():
    game = window_table(1, "fast", "Early Bird", "start")
    assert (game.turn, game.phase) == (1, "start")
    # Seat 1 holds nothing (skipped); seat 2 plays its Early Bird; seat 0 passes; seats 1 and 2
    # now hold nothing usable: three passes in a row, the window is closed.
    asked = answer_window(game, [(2, "Early Bird"), (0, "pass")])
    assert asked == [2, 0]
    assert (game.pending.seat, game.pending.kind, game.phase) == (1, "play", "play")
    assert [p.vp for p in game.players] == [0, 0, 1]
    assert game.loc[card(game, "Early Bird", "discard")] == ("discard", 2)


def test_start_of_turn_specials_ask_mode_asks_everyone_until_all_pass_in_a_row():
    game = window_table(1, "ask", "Early Bird", "start")
    asked = answer_window(game, [(1, "pass"), (2, "pass"), (0, "Early Bird"), (1, "pass"),
                                 (2, "Early Bird"), (0, "pass"), (1, "pass"), (2, "pass")])
    # Each Special starts a new round: it closes only after three passes in a row.
    assert asked == [1, 2, 0, 1, 2, 0, 1, 2]
    assert (game.pending.seat, game.pending.kind) == (1, "play")
    assert [p.vp for p in game.players] == [1, 0, 1]


def test_a_window_records_every_seat_whose_cards_it_checked_even_when_it_passed_them_silently():
    """`Game.special_checks`: in fast mode a window that passes a player without asking still tells
    the table that player holds no usable Special; the record of it is what lets live play refuse to
    take back a choice that found that out (smashup/play/undo.py)."""
    game = window_table(1, "fast", "Early Bird", "start")
    # Building the position ran the window up to seat 2's question: seat 1 was checked and skipped.
    assert game.special_checks == [1, 2]
    before = len(game.special_checks)
    answer_window(game, [(2, "Early Bird"), (0, "pass")])
    # After seat 2's Special: seat 0 asked (passes), then seats 1 and 2 checked and passed silently.
    assert game.special_checks[before:] == [0, 1, 2]
    assert game.digest() == replay(game.record(), TEST_REGISTRY).digest()  # bookkeeping, not state
