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


def test_cut_sizes_and_player_counts_are_checked():
    with pytest.raises(ValueError):
        top_cut(RANKED, 8)
    with pytest.raises(ValueError):
        top_cut(RANKED[:10], 16)


def test_tables_of_three_cut_at_tables_of_three():
    from tournaments.topcut import top_cut as cut

    assert cut(RANKED, 3, table_size=3) == [["s1", "s2", "s3"]]
    assert cut(RANKED, 9, table_size=3) == [["s1", "s6", "s7"], ["s2", "s5", "s8"], ["s3", "s4", "s9"]]
    with pytest.raises(ValueError, match="tables of 3 has a top 3 or 9"):
        cut(RANKED, 4, table_size=3)
    with pytest.raises(ValueError, match="tables of 4 has a top 4 or 16"):
        cut(RANKED, 9, table_size=4)


def test_the_final_order_names_the_winner_then_the_semifinals_then_the_swiss():
    from tournaments.topcut import final_order

    ranked = [f"s{i}" for i in range(1, 11)]
    semis = [[("s1", 10), ("s4", 12)], [("s2", 7), ("s3", 7)]]  # s4 and s2 (tie: better seed) go through
    final = [("s4", 8), ("s2", 8)]  # tie in the final: the better seed (s2) wins
    order = final_order(final, semis, ranked)
    assert [p for _, p, _ in order[:4]] == ["s2", "s4", "s1", "s3"]
    assert [how for _, _, how in order[:5]] == ["final", "final", "semifinal", "semifinal", "swiss"]
    assert [p for _, p, _ in order[4:]] == [f"s{i}" for i in range(5, 11)]
    assert [place for place, _, _ in order] == list(range(1, 11))
