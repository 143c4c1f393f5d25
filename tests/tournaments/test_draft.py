"""The Kickin' It Queensberry draft (tournaments.draft): a pure state machine, no database."""

import json
import re

import pytest

from smashup.catalog import CATALOG_DIR  # the project's copy of the team's catalogs (test_catalog)
from tournaments.draft import (
    FACTIONS,
    SETS,
    DraftError,
    DraftState,
    apply_ban,
    apply_pick,
    apply_timeout,
    base_sets,
    current_picker,
    current_step,
    default_choice,
    is_done,
    legal_picks,
    new_draft,
    result,
    turn_order,
)


def test_the_pool_lists_the_17_factions_of_the_three_boxes_as_the_catalogs_name_them():
    assert len(FACTIONS) == 17 and set(FACTIONS.values()) == set(SETS)
    names = {}
    for set_id in SETS:
        text = (CATALOG_DIR / f"{set_id}.yaml").read_text()
        block = text.split("\nfactions:", 1)[1].split("\nbases:", 1)[0]
        for name in re.findall(r"^  - name: \"?([^\"\n]+)\"?$", block, re.M):
            names[name] = set_id
    assert len(names) == 17 and names == FACTIONS


def test_snake_order_from_a_seeded_random_first_player():
    state = new_draft(["n", "e", "s", "w"], seed="table-3")
    assert state.first_by == "random" and state.first in "nesw"
    assert new_draft(["n", "e", "s", "w"], seed="table-3").first == state.first
    assert {new_draft("nesw", seed=s).first for s in range(40)} == set("nesw")
    state = new_draft(["n", "e", "s", "w"], seed=1, first="s")
    assert [p for p, _ in turn_order(state)] == ["s", "w", "n", "e", "e", "n", "w", "s"]
    assert state.first_by == "given"


def play(state, *factions):
    for faction in factions:
        state = apply_pick(state, current_picker(state), faction)
    return state


def test_a_full_draft_gives_everyone_two_different_factions():
    state = new_draft(["a", "b", "c"], seed=5, first="a")
    state = play(state, "Aliens", "Ninjas", "Pirates", "Robots", "Sharks", "Wizards")
    assert is_done(state) and current_picker(state) is None and legal_picks(state) == []
    assert result(state) == {
        "a": ["Aliens", "Wizards"],
        "b": ["Ninjas", "Sharks"],
        "c": ["Pirates", "Robots"],
    }
    assert base_sets(result(state)["b"]) == ["core", "iyf"]


def test_refused_choices_raise_a_clear_error_and_change_nothing():
    state = play(new_draft(["a", "b"], seed=5, first="a"), "Aliens")
    before = state.to_dict()
    cases = [
        ("a", "Ninjas", "turn"),  # out of turn
        ("b", "Aliens", "taken"),  # one copy, already taken
        ("b", "Elves", "not in the pool"),
        ("z", "Ninjas", "not in this draft"),
    ]
    for player, faction, message in cases:
        with pytest.raises(DraftError, match=message):
            apply_pick(state, player, faction)
    assert state.to_dict() == before
    state = play(state, "Ninjas")  # b picks twice in a row (the snake turns)
    with pytest.raises(DraftError, match="already has"):
        apply_pick(state, "b", "Ninjas")
    with pytest.raises(DraftError, match="a pick, not a ban"):
        apply_ban(state, "b", "Robots")
    done = play(state, "Robots", "Zombies")
    with pytest.raises(DraftError, match="over"):
        apply_pick(done, "a", "Dinosaurs")


def test_copies_let_two_players_take_the_same_faction_but_nobody_takes_one_twice():
    state = new_draft(["a", "b"], seed=0, pool={"Aliens": 2, "Ninjas": 1, "Robots": 1}, first="a")
    state = play(state, "Aliens", "Aliens")
    assert "Aliens" not in legal_picks(state)
    state = play(state, "Ninjas")
    # a holds Aliens; only Robots is left for a.
    assert legal_picks(state) == ["Robots"]


def test_a_pick_that_would_strand_a_later_player_is_not_legal():
    # Two players, Aliens x2, Ninjas x1, Robots x1. If b opens with Aliens then takes Ninjas and Robots
    # is left for a, fine; but if a player's choice would leave a only Aliens copies, it is refused.
    state = new_draft(["a", "b"], seed=0, pool={"Aliens": 2, "Ninjas": 1, "Robots": 1}, first="a")
    state = play(state, "Aliens")  # a: Aliens. b now must not leave a with only Aliens.
    state = play(state, "Ninjas")  # b: Ninjas; b picks again
    assert legal_picks(state) == ["Aliens"]  # taking Robots would strand a with an Aliens copy only
    with pytest.raises(DraftError, match="without a legal faction"):
        apply_pick(state, "b", "Robots")


def test_minimum_pool_rule_is_a_setting():
    with pytest.raises(DraftError, match="too small"):
        new_draft(["a", "b", "c"], seed=0, pool=["Aliens", "Ninjas", "Robots", "Pirates", "Zombies"])
    new_draft(["a", "b", "c"], seed=0, pool=["Aliens", "Ninjas", "Robots", "Pirates", "Zombies", "Wizards"])
    with pytest.raises(DraftError, match="too small"):
        new_draft(
            ["a", "b"], seed=0, pool=["Aliens", "Ninjas", "Robots", "Pirates", "Zombies"], min_per_player=3
        )
    # Copies beyond one per player do not count towards the pool.
    with pytest.raises(DraftError, match="too small"):
        new_draft(["a", "b"], seed=0, pool={"Aliens": 3, "Ninjas": 1})


def test_bans_come_first_one_each_in_order_and_remove_the_faction():
    pool = ["Aliens", "Ninjas", "Robots", "Pirates", "Zombies", "Wizards"]
    state = new_draft(["a", "b"], seed=0, pool=pool, bans_per_player=1, first="b")
    assert current_step(state) == ("b", "ban")
    with pytest.raises(DraftError, match="a ban, not a pick"):
        apply_pick(state, "b", "Aliens")
    state = apply_ban(state, "b", "Aliens")
    state = apply_ban(state, "a", "Ninjas")
    assert current_step(state) == ("b", "pick")
    assert legal_picks(state) == ["Robots", "Pirates", "Zombies", "Wizards"]
    with pytest.raises(DraftError, match="banned"):
        apply_pick(state, "b", "Aliens")
    with pytest.raises(DraftError, match="too small"):
        new_draft(["a", "b"], seed=0, pool=pool[:5], bans_per_player=1)


def test_the_timer_picks_a_seeded_random_legal_faction_and_marks_it():
    state = play(new_draft(["a", "b", "c", "d"], seed="t", first="a"), "Aliens", "Ninjas")
    choice = default_choice(state)
    assert choice in legal_picks(state) and choice == default_choice(state)
    after = apply_timeout(state)
    assert after.picks[-1].player == "c" and after.picks[-1].faction == choice and after.picks[-1].auto
    while not is_done(after):
        after = apply_timeout(after)
    assert all(len(set(f)) == 2 for f in result(after).values())


def test_state_round_trips_through_json():
    state = new_draft(["a", 2, "c"], seed=9, bans_per_player=1)
    state = apply_ban(state, current_picker(state), "Aliens")
    state = apply_timeout(state)
    again = DraftState.from_dict(json.loads(json.dumps(state.to_dict())))
    assert again == state
    assert legal_picks(again) == legal_picks(state)


def test_a_per_event_draft_with_many_players_and_copies_finishes_by_timer():
    players = [f"p{i}" for i in range(40)]
    state = new_draft(players, seed="event", copies=5)
    for _ in range(80):
        state = apply_timeout(state)
    assert is_done(state)
    taken = [f for fs in result(state).values() for f in fs]
    assert all(taken.count(f) <= 5 for f in FACTIONS)


def test_a_draft_at_one_table_hands_each_faction_out_once_whatever_the_copies():
    """Each faction is in a game once (issue 9): with three boxes of Aliens, one table still gets
    one Aliens; copies beyond one do not count towards the pool either."""
    pool = {"Aliens": 3, "Ninjas": 3, "Robots": 1, "Wizards": 1}
    state = new_draft(["a", "b"], seed=0, pool=pool, first="a", one_table=True)
    state = apply_pick(state, "a", "Aliens")
    assert legal_picks(state) == ["Ninjas", "Robots", "Wizards"]
    with pytest.raises(DraftError, match=r"Aliens is already at this table \(each faction is in a game once"):
        apply_pick(state, "b", "Aliens")
    while not is_done(state):
        state = apply_timeout(state)
    taken = [f for fs in result(state).values() for f in fs]
    assert sorted(taken) == sorted(pool)
    with pytest.raises(DraftError, match="copies beyond one .each faction once per table. do not count"):
        new_draft(["a", "b"], seed=0, pool={"Aliens": 3, "Ninjas": 3, "Robots": 1}, one_table=True)
    # The same pool across tables (not one table) lets two players take Aliens.
    shared = apply_pick(new_draft(["a", "b"], seed=0, pool=pool, first="a"), "a", "Aliens")
    assert "Aliens" in legal_picks(shared)


def test_one_table_round_trips_and_older_stored_drafts_read_as_not_one_table():
    state = new_draft(["a", "b"], seed=0, first="a", one_table=True)
    assert DraftState.from_dict(json.loads(json.dumps(state.to_dict()))) == state
    older = state.to_dict()
    del older["one_table"]
    assert DraftState.from_dict(older).one_table is False
