"""Player names: what a name may hold, and when two names are one.

Pure Python, no Django. Issue 27: a NUL in a name was a 500 on PostgreSQL, and names that look the
same coexisted in one event (Cyrillic letters among Latin ones, a zero-width space, a right-to-left
override, "Émile"/"émile" on SQLite, whose case-insensitive match is ASCII only). So:

- `clean_name`: spaces collapsed, the text in Unicode's composed form (NFC), at most MAX_NAME
  characters; refused (`BadName`, a message for people) with a control character (NUL, tab and
  the like), an invisible one (zero-width spaces and joiners, direction marks and overrides, the
  byte order mark, soft hyphens, variation selectors, Hangul fillers, the Braille blank), one from
  a private-use area, a surrogate or an unassigned code point.
- `name_key`: the form names are compared in, stored with each entrant (a unique key per event):
  compatibility-normalised (NFKC: full-width and styled letters become plain ones), case-folded,
  and every non-ASCII character that Unicode lists as confusable with an ASCII letter or digit (its
  confusables data, through the `confusable_homoglyphs` package) replaced by that letter ("Аda" with
  a Cyrillic А is "ada"). ASCII characters are left as they are, so "Ian" and "lan" stay two names;
  accents too ("Émile" and "Emile" are two people).
"""

from __future__ import annotations

import json
import unicodedata
from functools import cache
from pathlib import Path

MAX_NAME = 40

# Invisible code points that are not in the categories refused below (Cf, Cc, Co, Cs, Cn): Unicode's
# default-ignorable letters and marks, and blanks that show nothing.
INVISIBLE = (
    {0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x2800, 0x3164, 0xFFA0}
    | set(range(0x180B, 0x1810))  # Mongolian free variation selectors and vowel separator
    | set(range(0xFE00, 0xFE10))  # variation selectors
    | set(range(0xE0100, 0xE01F0))  # variation selectors supplement
)
REFUSED_CATEGORIES = {
    "Cc": "a control character",
    "Cf": "an invisible formatting character",
    "Co": "a private-use character",
    "Cs": "a broken character",
    "Cn": "an unassigned character",
    "Zl": "a line break",
    "Zp": "a paragraph break",
}


class BadName(ValueError):
    """A name refused; `str(err)` is for people."""

    @property
    def message(self) -> str:
        return str(self)


def _what(char: str) -> str | None:
    """Why `char` has no place in a name, or None."""
    if ord(char) in INVISIBLE:
        return "an invisible character"
    return REFUSED_CATEGORIES.get(unicodedata.category(char))


def clean_name(name) -> str:
    """The name as stored: NFC, spaces collapsed. Raises BadName (nothing is stored)."""
    text = unicodedata.normalize("NFC", " ".join(str(name or "").split()))
    if not text:
        raise BadName("Enter a name.")
    for char in text:
        what = _what(char)
        if what:
            code = f"U+{ord(char):04X}"
            raise BadName(f"A name cannot hold {what} ({code}): type it again with letters and spaces only.")
    if len(text) > MAX_NAME:
        raise BadName(f"A name has at most {MAX_NAME} characters.")
    return text


def name_key(name: str) -> str:
    """The comparison form of a name (see the module's docstring): equal keys, one name."""
    text = unicodedata.normalize("NFKC", " ".join(str(name or "").split())).casefold()
    table = _skeleton()
    text = "".join(table.get(char, char) for char in text)
    return unicodedata.normalize("NFKC", text).casefold()


@cache
def _skeleton() -> dict[str, str]:
    """{character: ASCII stand-in} for every non-ASCII character (one code point after case folding)
    that Unicode's confusables list as looking like an ASCII letter or digit: the lowest such letter
    (else digit). Direct pairs only: chaining look-alikes of look-alikes would join letters that do
    not look alike."""
    import confusable_homoglyphs

    data = json.loads((Path(confusable_homoglyphs.__file__).parent / "confusables.json").read_text("utf-8"))

    def fold(c: str) -> str:
        c = c.replace("\u200e", "").replace("\u200f", "")  # the data wraps right-to-left characters
        folded = unicodedata.normalize("NFKC", c).casefold()
        return folded if len(folded) == 1 else ""

    looks_like: dict[str, set[str]] = {}
    for key, homoglyphs in data.items():
        a = fold(key)
        for homoglyph in homoglyphs:
            b = fold(homoglyph["c"])
            for char, target in ((a, b), (b, a)):
                if char and target and not char.isascii() and target.isascii() and target.isalnum():
                    looks_like.setdefault(char, set()).add(target)
    return {char: min(targets, key=lambda t: (not t.isalpha(), t)) for char, targets in looks_like.items()}
