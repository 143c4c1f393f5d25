"""Top cut seeding (tournaments.topcut); no database."""

import pytest

from tournaments.topcut import final_table, first_stage, next_stage, top_cut

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
        top_cut(RANKED, 9, table_size=2)


def test_cut_sizes_and_player_counts_are_checked():
    with pytest.raises(ValueError):
        top_cut(RANKED, 5)
    with pytest.raises(ValueError):
        top_cut(RANKED[:10], 16)
    with pytest.raises(ValueError, match="a top 8 needs 8 players; only 7"):
        top_cut(RANKED[:7], 8, table_size=2)


def table(*pairs):
    return list(pairs)


def test_a_top_8_at_tables_of_4_sends_the_first_two_of_each_semifinal_to_the_final():
    semis = top_cut(RANKED, 8)
    assert semis == [["s1", "s4", "s5", "s8"], ["s2", "s3", "s6", "s7"]]  # snake-seeded
    assert first_stage(8) == "semifinal" and first_stage(4) == "final" and first_stage(16) == "semifinal"
    # Table 1: s5 wins, s1 and s8 tie for second: the better seed (s1) goes through.
    # Table 2: s7 and s3 go through; the final is seated by the original seed.
    stage, tables = next_stage(
        [
            table(("s1", 10), ("s4", 6), ("s5", 14), ("s8", 10)),
            table(("s2", 3), ("s3", 12), ("s6", 9), ("s7", 15)),
        ],
        RANKED,
    )
    assert stage == "final" and tables == [["s1", "s3", "s5", "s7"]]


def test_a_top_16_sends_each_semifinal_winner_to_the_final():
    stage, tables = next_stage(
        [table(("s1", 5), ("s8", 9)), table(("s2", 9), ("s7", 1)), table(("s3", 2)), table(("s13", 4))],
        RANKED,
    )
    assert stage == "final" and tables == [["s2", "s3", "s8", "s13"]]
    with pytest.raises(ValueError, match="do not fill one final table"):
        next_stage([table(("s1", 1))] * 3, RANKED)


def test_a_one_v_one_top_8_is_a_bracket_reseeded_best_against_worst():
    quarters = top_cut(RANKED, 8, table_size=2)
    assert quarters == [["s1", "s8"], ["s2", "s7"], ["s3", "s6"], ["s4", "s5"]]
    assert first_stage(8, table_size=2) == "quarterfinal"
    # s8, s2, s6 and s4 win: the semifinals are s2 v s8 and s4 v s6, the better seed first.
    stage, semis = next_stage(
        [
            table(("s1", 10), ("s8", 12)),
            table(("s2", 15), ("s7", 3)),
            table(("s3", 8), ("s6", 8)),  # a tie goes to the better seed: s3
            table(("s4", 9), ("s5", 10)),
        ],
        RANKED,
        table_size=2,
    )
    assert stage == "semifinal" and semis == [["s2", "s8"], ["s3", "s5"]]
    stage, final = next_stage(
        [table(("s2", 4), ("s8", 15)), table(("s3", 15), ("s5", 1))], RANKED, table_size=2
    )
    assert stage == "final" and final == [["s3", "s8"]]


def test_a_one_v_one_top_16_starts_with_a_round_of_16():
    first = top_cut(RANKED, 16, table_size=2)
    assert first_stage(16, table_size=2) == "eighthfinal"
    assert first[0] == ["s1", "s16"] and first[-1] == ["s8", "s9"] and len(first) == 8
    stage, quarters = next_stage([table((a, 2), (b, 1)) for a, b in first], RANKED, table_size=2)
    assert stage == "quarterfinal" and quarters == [["s1", "s8"], ["s2", "s7"], ["s3", "s6"], ["s4", "s5"]]


def test_tables_of_three_cut_at_tables_of_three():
    from tournaments.topcut import top_cut as cut

    assert cut(RANKED, 3, table_size=3) == [["s1", "s2", "s3"]]
    assert cut(RANKED, 9, table_size=3) == [["s1", "s6", "s7"], ["s2", "s5", "s8"], ["s3", "s4", "s9"]]
    with pytest.raises(ValueError, match="tables of 3 has a top 3 or 9"):
        cut(RANKED, 4, table_size=3)
    with pytest.raises(ValueError, match="tables of 4 has a top 4, 8 or 16"):
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


def test_the_final_order_places_those_out_in_each_earlier_stage_after_the_later_ones():
    from tournaments.topcut import final_order

    ranked = [f"s{i}" for i in range(1, 11)]
    quarters = [
        [("s1", 9), ("s8", 3)],
        [("s2", 1), ("s7", 5)],
        [("s3", 4), ("s6", 4)],
        [("s4", 8), ("s5", 2)],
    ]
    semis = [[("s1", 6), ("s7", 2)], [("s3", 1), ("s4", 7)]]
    final = [("s1", 3), ("s4", 9)]
    order = final_order(final, semis, ranked, earlier=[("quarterfinal", quarters)])
    assert [p for _, p, _ in order] == ["s4", "s1", "s3", "s7", "s2", "s5", "s6", "s8", "s9", "s10"]
    assert [how for _, _, how in order][:8] == ["final"] * 2 + ["semifinal"] * 2 + ["quarterfinal"] * 4
