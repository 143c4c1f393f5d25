"""Reading a JSON message from a WebSocket client: bounded in size and depth before it is parsed.

``json.loads`` recurses once per nesting level, so a few kilobytes of ``[[[[...`` raise
RecursionError deep in the parser (a 1011 "server error" close if nobody catches it). Client messages
of this site are flat objects, so anything nested deeper than ``MAX_DEPTH`` is refused before
parsing, by a scan of the brackets outside strings.

    message = read_message(text)      # a dict, or MessageRefused(code, message)
"""

from __future__ import annotations

import json
import re

MAX_CHARS = 8192  # characters of one client message
MAX_DEPTH = 8  # nested objects/arrays; our messages use 2 ({"options": [...]})

_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_NOT_BRACKETS = re.compile(r"[^\[\]{}]+")


class MessageRefused(ValueError):
    """A client message that is not read. `code` for programs, `str(err)` for people."""

    def __init__(self, message: str, code: str):
        super().__init__(message)
        self.code = code

    @property
    def message(self) -> str:
        return str(self)


def nesting_depth(text: str) -> int:
    """How deeply the arrays and objects of a JSON text nest (brackets inside strings do not count;
    an unbalanced text gives the depth it reached, and the parser refuses it afterwards)."""
    brackets = _NOT_BRACKETS.sub("", _STRINGS.sub("", text))
    depth = deepest = 0
    for char in brackets:
        if char in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
        else:
            depth -= 1
    return deepest


def read_message(text, *, max_chars: int = MAX_CHARS, max_depth: int = MAX_DEPTH) -> dict:
    """The JSON object in a text frame, or MessageRefused (codes: bad_request, too_large,
    too_deep, malformed)."""
    if not isinstance(text, str):
        raise MessageRefused("Send text frames with JSON messages.", "bad_request")
    if len(text) > max_chars:
        raise MessageRefused(f"Message too large (at most {max_chars} characters).", "too_large")
    if nesting_depth(text) > max_depth:
        raise MessageRefused(
            f"Message nested too deeply (at most {max_depth} levels of arrays and objects).", "too_deep"
        )
    try:
        message = json.loads(text)
    except (ValueError, RecursionError):
        raise MessageRefused("Malformed message: it is not JSON.", "malformed") from None
    if not isinstance(message, dict):
        raise MessageRefused("Malformed message: expected a JSON object with a 'type'.", "malformed")
    return message
