"""The bench_pairing command: the shape of its report (never its timings, machines are noisy)."""

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

FIELDS = {
    "players",
    "drops",
    "late",
    "rounds",
    "table_size",
    "layout",
    "seed",
    "seconds_median",
    "seconds_max",
    "seconds_by_round",
    "cpu_seconds_median",
    "cpu_seconds_max",
    "cpu_seconds_by_round",
    "repeats",
    "repeats_by_round",
    "lower_bound",
    "avoidable",
    "avoidable_at_most",
    "unproven_rounds",
    "methods",
    "short_tables",
    "unfair_short_tables",
    "unfair_by_round",
    "tabu_step",
}


def run(*args):
    out = StringIO()
    call_command("bench_pairing", *args, stdout=out)
    return out.getvalue()


def test_json_report_has_the_agreed_fields_and_sane_counts():
    data = json.loads(run("--players", "12", "--rounds", "3", "--seed", "5", "--json"))
    assert set(data) == FIELDS
    assert data["players"] == 12 and data["rounds"] == 3
    assert len(data["seconds_by_round"]) == len(data["repeats_by_round"]) == 3
    assert data["repeats"] == sum(data["repeats_by_round"]) >= data["lower_bound"]
    assert data["avoidable"] == 0  # exact search: nothing is avoidable
    assert data["methods"] == ["exact", "random"]
    assert 0 <= data["seconds_median"] <= data["seconds_max"]
    assert 0 <= data["cpu_seconds_median"] <= data["cpu_seconds_max"]
    assert len(data["cpu_seconds_by_round"]) == 3


def test_same_seed_gives_the_same_repeats():
    args = ("--players", "20", "--rounds", "4", "--seed", "9", "--json")
    first, again = json.loads(run(*args)), json.loads(run(*args))
    assert first["repeats_by_round"] == again["repeats_by_round"]


def test_text_report_and_other_table_sizes():
    text = run("--players", "9", "--rounds", "2", "--table-size", "2")
    assert "9 players, 2 rounds at tables of 2" in text and "avoidable" in text
    data = json.loads(run("--players", "13", "--rounds", "2", "--table-size", "3", "--json"))
    assert data["table_size"] == 3 and data["methods"] == ["local", "random"]


def test_a_per_event_draft_is_simulated_and_its_clashes_counted():
    data = json.loads(run("--players", "32", "--rounds", "3", "--faction-copies", "1", "--json"))
    assert set(data) == FIELDS | {"faction_copies", "clashes", "clashes_by_round"}
    assert data["faction_copies"] == 1 and len(data["clashes_by_round"]) == 3
    assert data["clashes"] == sum(data["clashes_by_round"]) == 0 and data["avoidable"] == 0
    text = run("--players", "16", "--rounds", "2", "--faction-copies", "1")
    assert "faction clashes (1 per table): 0" in text


def test_drops_and_late_entries_are_simulated():
    data = json.loads(
        run("--players", "17", "--rounds", "4", "--drops", "1", "--late", "2", "--seed", "1", "--json")
    )
    assert data["drops"] == 1 and data["late"] == 2
    assert data["repeats"] == sum(data["repeats_by_round"]) >= data["lower_bound"]
    text = run("--players", "18", "--rounds", "3", "--drops", "1", "--late", "1")
    assert "18 players (+1 late) (1 drop a round), 3 rounds" in text


def test_bad_arguments_are_refused():
    with pytest.raises(CommandError):
        run("--players", "1", "--rounds", "2")
    with pytest.raises(CommandError):
        run("--players", "8", "--rounds", "0")
    with pytest.raises(CommandError):
        run("--players", "8", "--rounds", "2", "--faction-copies", "0")
    with pytest.raises(CommandError):
        run("--players", "8", "--rounds", "2", "--drops", "-1")


def test_the_soft_short_tables_are_benched_and_counted():
    data = json.loads(run("--players", "13", "--rounds", "3", "--short-tables", "soft", "--json"))
    assert data["short_tables"] == "soft"
    assert len(data["unfair_by_round"]) == 3 and sum(data["unfair_by_round"]) == data["unfair_short_tables"]
    assert "short tables again before everyone had one (strict fairness)" in run(
        "--players", "7", "--rounds", "2"
    )
