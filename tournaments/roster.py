"""A list of players pasted or uploaded by an organizer, read line by line. Pure Python, no Django.

The list is CSV: name, e-mail, and optionally a club, one player a line. Commas, semicolons or tabs
separate the columns (what a spreadsheet's "save as CSV" writes in most languages); a first line
that names the columns (name, e-mail, club, in any order) is read as a header. Each line gets its
own error, so the organizer sees every problem at once; the names are checked by the services
afterwards, as the event's sign-up checks them (services.importing).
"""

from __future__ import annotations

import csv
import re
import unicodedata
from dataclasses import dataclass

MAX_LINES = 1000  # players in one list
MAX_CHARS = 200_000  # of the whole text (a line is short: 1,000 lines of 200 characters)
MAX_EMAIL = 254
MAX_CLUB = 60
DELIMITERS = (",", ";", "\t")
# What a header may call each column (case and spaces do not matter).
HEADERS = {
    "name": "name",
    "player": "name",
    "players": "name",
    "e-mail": "email",
    "email": "email",
    "mail": "email",
    "e-mail address": "email",
    "email address": "email",
    "club": "club",
    "team": "club",
    "store": "club",
}
COLUMNS = ("name", "email", "club")
# An address as people type it: something@domain.tld, no spaces (the full grammar of RFC 5322 allows
# far more than any organizer's list holds; a typo such as a missing @ is what this catches).
EMAIL = re.compile(r"^[^@\s,;<>\"]+@[^@\s,;<>\"]+\.[^@\s,;<>\".]{2,}$")


class RosterError(ValueError):
    """The list as a whole cannot be read (too long, not text): nothing of it is used."""


@dataclass(frozen=True)
class RosterLine:
    line: int  # 1-based, counting every line of the text (blank ones and the header too)
    name: str
    email: str
    club: str
    error: str = ""


def _delimiter(lines: list[str]) -> str:
    """The separator the first non-blank line uses most (a comma when it has none)."""
    for text in lines:
        if text.strip():
            counts = {d: text.count(d) for d in DELIMITERS}
            best = max(DELIMITERS, key=lambda d: counts[d])
            return best if counts[best] else ","
    return ","


def _header(cells: list[str]) -> list[str] | None:
    """The columns a header line names, in its order; None when the line is not a header."""
    keys = [" ".join(c.split()).casefold() for c in cells]
    if not keys or keys[0] not in HEADERS:
        return None
    columns = [HEADERS.get(k) for k in keys]
    return columns if "name" in columns else None


def parse_roster(text: str) -> list[RosterLine]:
    """Every non-blank line of `text` as a `RosterLine` (with its error, if any). Raises
    `RosterError` when the whole list is refused."""
    if not isinstance(text, str):
        raise RosterError("The list is not text.")
    if len(text) > MAX_CHARS:
        raise RosterError(
            f"The list is too long: at most {MAX_LINES:,} players and {MAX_CHARS:,} characters."
        )
    text = text.lstrip("\ufeff")  # a byte-order mark that a spreadsheet put first
    raw = text.splitlines()
    delimiter = _delimiter(raw)
    try:
        rows = list(csv.reader(raw, delimiter=delimiter, skipinitialspace=True))
    except csv.Error as exc:
        raise RosterError(f"The list cannot be read as CSV: {exc}.") from None
    columns: list = list(COLUMNS)
    out: list[RosterLine] = []
    first = True
    for number, cells in enumerate(rows, start=1):
        cells = [c.strip() for c in cells]
        while cells and not cells[-1]:
            cells.pop()
        if not cells:
            continue
        if first:
            first = False
            found = _header(cells)
            if found is not None:
                columns = found
                continue
        out.append(_line(number, cells, columns))
        if len(out) > MAX_LINES:
            raise RosterError(f"The list is too long: at most {MAX_LINES:,} players at once.")
    return out


def _hidden(text: str) -> bool:
    """Control, format (zero-width, right-to-left override), private-use or lone surrogate
    characters: nothing a name, an address or a club is written with."""
    return any(unicodedata.category(c) in ("Cc", "Cf", "Co", "Cs") for c in text)


def _line(number: int, cells: list[str], columns: list) -> RosterLine:
    """One player's line. `columns`: what each cell is (None: a column a header named that is not
    ours, left out)."""
    values = {"name": "", "email": "", "club": ""}
    for column, cell in zip(columns, cells, strict=False):
        if column is not None:
            values[column] = cell
    name, email, club = values["name"], values["email"], values["club"]
    error = ""
    if any(_hidden(cell) for cell in cells):
        error = "A control or invisible character (say, a zero-width space): type this line again."
    elif len(cells) > len(columns):
        error = "Too many columns: a line is a name, an e-mail address and (if you like) a club."
    elif not name:
        error = "No name."
    elif not email:
        error = "No e-mail address."
    elif len(email) > MAX_EMAIL or not EMAIL.match(email):
        error = f"{email!r} is not an e-mail address."
    elif len(club) > MAX_CLUB:
        error = f"A club's name has at most {MAX_CLUB} characters."
    return RosterLine(number, name, email, club, error)
