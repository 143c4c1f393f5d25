"""Whole numbers from outside (query strings, forms, socket messages, URLs): read one way everywhere.

``str.isdigit()`` is true for superscripts and other Unicode digits that ``int()`` refuses (``"²"``)
or reads as numbers (``"٣"`` is 3), and ``int()`` itself also takes signs, underscores and spaces
(``" +1_0 "``). Here a number is 1 to ``max_digits`` ASCII digits, nothing else, so a bad value is
a clear error (``BadNumber``, which a view answers with 400 and a socket with an error message)
and never a 500 or a surprise.

    whole_number("12", "seq")            # 12
    whole_number(12, "seq")              # 12 (a JSON number; never a bool)
    optional_number("", "seat")          # None: absent or empty
    whole_number("²", "seat")            # BadNumber("'seat' must be a whole number ...")

``smashup.core.inputs.BadInputMiddleware`` turns a ``BadNumber`` that escapes a view into a 400 naming
the value.
"""

from __future__ import annotations

import re

MAX_DIGITS = 9  # below 2**31: fits every integer column, and no huge number is ever built
_DIGITS = re.compile(r"[0-9]+")


class BadNumber(ValueError):
    """A value that should have been a whole number and is not. `str(err)` is for people."""

    code = "bad_request"

    def __init__(self, name: str, max_digits: int = MAX_DIGITS):
        self.name = name
        super().__init__(f"'{name}' must be a whole number (the digits 0-9, at most {max_digits} of them).")

    @property
    def message(self) -> str:
        return str(self)


def whole_number(value, name: str, *, max_digits: int = MAX_DIGITS) -> int:
    """`value` as a non-negative int: an int (not a bool), or a string of 1..max_digits ASCII
    digits (surrounding ASCII spaces allowed). Anything else raises BadNumber."""
    if isinstance(value, bool):
        raise BadNumber(name, max_digits)
    if isinstance(value, int):
        if value < 0 or len(str(value)) > max_digits:
            raise BadNumber(name, max_digits)
        return value
    if not isinstance(value, str):
        raise BadNumber(name, max_digits)
    text = value.strip(" \t")
    if not 0 < len(text) <= max_digits or not _DIGITS.fullmatch(text):
        raise BadNumber(name, max_digits)
    return int(text)


def optional_number(value, name: str, *, max_digits: int = MAX_DIGITS) -> int | None:
    """Like `whole_number`, but None (or an empty string) means "not given" and gives None."""
    if value is None or (isinstance(value, str) and not value.strip(" \t")):
        return None
    return whole_number(value, name, max_digits=max_digits)
