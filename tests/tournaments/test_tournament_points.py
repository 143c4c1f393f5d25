"""Tournament points by placement (tournaments.scoring): pure, no database."""

import pytest

from tournaments.scoring import average_points, place_points, placements, table_points


def test_normalised_points_run_from_4_to_1_at_every_table_size():
    assert [place_points(4, p) for p in (1, 2, 3, 4)] == [4, 3, 2, 1]
    assert [place_points(3, p) for p in (1, 2, 3)] == [4, 2.5, 1]
    assert [place_points(2, p) for p in (1, 2)] == [4, 1]


def test_every_table_size_averages_the_same_when_normalised():
    assert average_points(4) == average_points(3) == average_points(2) == 2.5


def test_4321_preset_ignores_table_size():
    assert [place_points(3, p, "4321") for p in (1, 2, 3)] == [4, 3, 2]
    assert [place_points(4, p, "4321") for p in (1, 2, 3, 4)] == [4, 3, 2, 1]


def test_placement_from_vp_with_ties_covering_places():
    assert placements({"a": 15, "b": 10, "c": 10, "d": 3}) == {
        "a": (1, 1),
        "b": (2, 3),
        "c": (2, 3),
        "d": (4, 4),
    }
    assert placements({"a": 7, "b": 7, "c": 7}) == {p: (1, 3) for p in "abc"}


def test_tied_players_share_the_average_of_the_places_they_cover():
    assert table_points({"a": 15, "b": 10, "c": 10, "d": 3}) == {"a": 4, "b": 2.5, "c": 2.5, "d": 1}
    assert table_points({"a": 15, "b": 15, "c": 2}) == {"a": 3.25, "b": 3.25, "c": 1}
    assert table_points({"a": 9, "b": 4, "c": 4, "d": 4}) == {"a": 4, "b": 2, "c": 2, "d": 2}
    assert table_points({"a": 5, "b": 5}, "4321") == {"a": 3.5, "b": 3.5}
    # A table hands out the same total whatever the ties.
    assert sum(table_points({"a": 1, "b": 1, "c": 1, "d": 0}).values()) == 10


def test_bad_place_or_preset_is_refused():
    with pytest.raises(ValueError):
        place_points(3, 4)
    with pytest.raises(ValueError):
        place_points(4, 1, "3210")
