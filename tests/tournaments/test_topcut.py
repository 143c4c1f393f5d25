"""Top cut seeding (tournaments.topcut); no database."""

import pytest

from tournaments.topcut import final_table, top_cut

RANKED = [f"s{i}" for i in range(1, 21)]  # s1 is the top seed


def test_top_4_is_one_final_table_seated_by_rank():
    assert top_cut(RANKED, 4) == [["s1", "s2", "s3", "s4"]]


def test_top_16_snake_seeds_four_semifinals():
    assert top_cut(RANKED, 16) == [
        ["s1", "s8", "s9", "s16"],
        ["s2", "s7", "s10", "s15"],
        ["s3", "s6", "s11", "s14"],
        ["s4", "s5", "s12", "s13"],
    ]


def test_semifinal_winners_meet_in_a_final_seated_by_seed():
    assert final_table(["s13", "s2", "s9", "s6"], RANKED) == ["s2", "s6", "s9", "s13"]
    with pytest.raises(ValueError):
        final_table(["s2", "s2", "x", "s1"], RANKED)


def test_a_one_v_one_top_4_plays_two_semifinals_of_two_then_a_final_of_two():
    semis = top_cut(RANKED, 4, table_size=2)
    assert semis == [["s1", "s4"], ["s2", "s3"]]  # best against worst, the better seed first
    assert final_table(["s4", "s2"], RANKED) == ["s2", "s4"]
    with pytest.raises(ValueError, match="1v1"):
        top_cut(RANKED, 16, table_size=2)
    assert top_cut(RANKED, 4, table_size=3) == [["s1", "s2", "s3", "s4"]]  # 3-4 player events: as before


def test_cut_sizes_and_player_counts_are_checked():
    with pytest.raises(ValueError):
        top_cut(RANKED, 8)
    with pytest.raises(ValueError):
        top_cut(RANKED[:10], 16)
