"""Lists of players pasted or uploaded by an organizer (tournaments.roster); no database."""

import pytest

from tournaments.roster import MAX_LINES, RosterError, RosterLine, parse_roster


def test_lines_of_name_email_and_club_with_or_without_a_header():
    text = "Ada Lovelace, ada@example.org, Analytical Club\nBob,bob@example.org\n\n  Cy ;x\n"
    lines = parse_roster(text)
    assert lines[0] == RosterLine(1, "Ada Lovelace", "ada@example.org", "Analytical Club")
    assert lines[1] == RosterLine(2, "Bob", "bob@example.org", "")
    assert lines[2].line == 4 and lines[2].error  # blank lines are skipped, numbers kept
    headed = parse_roster("\ufeffClub;E-mail;Name\nMoon;dee@example.org;Dee\n")
    assert headed == [RosterLine(2, "Dee", "dee@example.org", "Moon")]
    tabs = parse_roster("Player\tMail\nEve\teve@example.org\n")
    assert tabs == [RosterLine(2, "Eve", "eve@example.org", "")]


def test_a_spreadsheets_quotes_and_other_named_columns():
    lines = parse_roster('name,phone,email\n"Smith, Jo","555",jo@example.org\n')
    assert lines == [RosterLine(2, "Smith, Jo", "jo@example.org", "")]  # a column we do not know: left out


@pytest.mark.parametrize(
    "line, error",
    [
        (",ada@example.org", "No name."),
        ("Ada", "No e-mail address."),
        ("Ada, ada.example.org", "'ada.example.org' is not an e-mail address."),
        ("Ada, ada@example", "'ada@example' is not an e-mail address."),
        ("Ada, a b@example.org", "is not an e-mail address"),
        ("Ada, ada@example.org, Club, extra", "Too many columns"),
        ("Ada, ada@example.org, " + "C" * 61, "at most 60 characters"),
        ("A\u200bda, ada@example.org", "invisible character"),
        ("Ada\x00, ada@example.org", "control or invisible character"),
        ("\u202eAda, ada@example.org", "invisible character"),
    ],
)
def test_each_line_gets_its_own_error(line, error):
    lines = parse_roster("Bob, bob@example.org\n" + line + "\nCy, cy@example.org")
    assert [x.error for x in lines[::2]] == ["", ""]
    assert error in lines[1].error and lines[1].line == 2


def test_a_whole_list_that_cannot_be_used_is_refused():
    with pytest.raises(RosterError, match="at most 1,000 players"):
        parse_roster("".join(f"P{i}, p{i}@example.org\n" for i in range(MAX_LINES + 1)))
    with pytest.raises(RosterError, match="too long"):
        parse_roster("x" * 200_001)
    with pytest.raises(RosterError, match="not text"):
        parse_roster(b"Ada, ada@example.org")
    assert parse_roster("") == [] and parse_roster("\n \n") == []
    assert len(parse_roster("".join(f"P{i}, p{i}@example.org\n" for i in range(MAX_LINES)))) == MAX_LINES
