"""Reading numbers and JSON messages from outside (smashup.core.params, smashup.core.wsjson): pure
functions, no database."""

from __future__ import annotations

import json

import pytest

from smashup.core import params, wsjson


@pytest.mark.parametrize("value, expected", [("0", 0), ("12", 12), (" 7 ", 7), ("007", 7), (3, 3), (0, 0)])
def test_a_whole_number_is_ascii_digits_or_an_int(value, expected):
    assert params.whole_number(value, "seq") == expected


@pytest.mark.parametrize(
    "value",
    [
        "²",  # a superscript: str.isdigit() says yes, int() says no
        "٣",  # an Arabic-Indic digit: int() reads it as 3
        "３",  # a fullwidth digit
        "1²",
        "",
        " ",
        "-1",
        "+1",
        "1_000",
        "1.0",
        "1e3",
        "0x10",
        "12\n",
        "1" * 10,  # longer than MAX_DIGITS
        -1,
        10**9,
        True,
        False,
        None,
        1.0,
        ["1"],
    ],
)
def test_anything_else_is_a_bad_number_with_a_message(value):
    assert "²".isdigit()  # why this module exists
    with pytest.raises(params.BadNumber, match="'seq' must be a whole number"):
        params.whole_number(value, "seq")


def test_an_optional_number_may_be_absent_but_not_malformed():
    assert params.optional_number(None, "seat") is None
    assert params.optional_number("", "seat") is None
    assert params.optional_number("  ", "seat") is None
    assert params.optional_number("2", "seat") == 2
    with pytest.raises(params.BadNumber):
        params.optional_number("²", "seat")
    with pytest.raises(params.BadNumber, match="at most 3"):
        params.optional_number("1234", "warnings", max_digits=3)


def test_a_message_is_bounded_in_size_and_depth_before_it_is_parsed():
    assert wsjson.read_message('{"type": "choice", "options": ["m1", "m2"]}')["options"] == ["m1", "m2"]
    # Brackets inside strings do not count.
    assert wsjson.read_message(json.dumps({"type": "x", "text": "[[[[[[[[[[[[[[[[[[[[[[[[["}))["type"] == "x"
    deep = "[" * 3000 + "]" * 3000  # 6 KB: json.loads alone would raise RecursionError
    assert len(deep) == 6000
    with pytest.raises(RecursionError):
        json.loads("[" * 100_000 + "]" * 100_000)
    for text, code in (
        (deep, "too_deep"),
        ('{"type": "choice", "options": ' + "[" * 20 + "]" * 20 + "}", "too_deep"),
        ("x" * (wsjson.MAX_CHARS + 1), "too_large"),
        ("not json", "malformed"),
        ("[1, 2]", "malformed"),
        ('{"a": [}', "malformed"),
        (b"{}", "bad_request"),
        (None, "bad_request"),
    ):
        with pytest.raises(wsjson.MessageRefused) as refused:
            wsjson.read_message(text)
        assert refused.value.code == code and refused.value.message
    assert wsjson.nesting_depth('{"a": [1, {"b": "]]]"}]}') == 3
