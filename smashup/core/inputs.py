"""Bad input is refused at one place, before any view runs: a 400 with a message, never a 500.

What a view gets from the outside (its path, query string, form fields, a JSON body, cookies) ends up
in database queries, and PostgreSQL refuses a NUL byte in any text ("PostgreSQL text fields cannot
contain NUL (0x00) bytes": a 500 from every page that looked a path parameter up, issue 28). No page
of this site has any use for control characters either, nor for values longer than a form could
send. So ``BadInputMiddleware``, first in the chain, refuses a request whose

- path holds a control character (C0, DEL, C1) or a lone surrogate, or is longer than
  ``MAX_PATH`` characters;
- query string is longer than ``MAX_QUERY``, or whose query or form fields (names and values) hold
  a control character other than tab, line feed and carriage return (a textarea sends those), a
  lone surrogate, a name longer than ``MAX_NAME`` or a value longer than ``MAX_VALUE``;
- ``next`` (the page to go back to, in the query or the form) is not a path of this site: our pages
  only ever send one (``/tournaments/1/``), and ``redirect()`` takes anything else for a view name;
- JSON body (``application/json``) is not UTF-8 JSON nested at most ``MAX_JSON_DEPTH`` levels,
  or holds such a string (as a key or a value);
- form body cannot be read (a malformed multipart body, too large, too many fields);

with 400 and a message naming the field (plain text for htmx, which shows it in place; JSON for a
``.json`` address; the site's message page otherwise). A cookie with such a value is a cookie this
site never set: it is dropped, and the request goes on as if it had not been sent (so a broken cookie
cannot lock a browser out).

Numbers are read where they are used (``smashup.core.params``); a ``BadNumber`` that escapes a view
is answered here too, the same way.

In the admin (``/admin/``) the database is the last check of a change that Django's generic forms
cannot validate (a conditional unique constraint, or one on a field the inline form leaves out): the
admin's views run in a transaction, so an ``IntegrityError`` there changed nothing, and it is answered
with 409 and a message instead of a 500.
"""

from __future__ import annotations

import json
import logging
import re

from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent
from django.db import DataError, IntegrityError
from django.http import HttpResponse, JsonResponse
from django.http.multipartparser import MultiPartParserError
from django.shortcuts import render

from smashup.core import params, wsjson

logger = logging.getLogger(__name__)

MAX_PATH = 2000  # characters of the path
MAX_QUERY = 4000  # characters of the raw query string
MAX_NAME = 200  # characters of a field name
MAX_VALUE = 100_000  # characters of one field (the longest real one: a Big Base board's JSON in the admin)
MAX_COOKIE = 4096  # what a browser keeps of one cookie
MAX_JSON_DEPTH = 20

# Anywhere: C0 controls but tab, LF and CR; DEL; C1 controls; lone surrogates (not UTF-8 at all).
_BAD_IN_VALUE = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")
# In a path, a name or a cookie: no control character at all.
_BAD_IN_NAME = re.compile(r"[\x00-\x1f\x7f-\x9f\ud800-\udfff]")


class BadInput(ValueError):
    """A request refused before any view ran. `str(err)` is for people."""

    @property
    def message(self) -> str:
        return str(self)


def _what(char: str) -> str:
    if char == "\x00":
        return "a NUL byte"
    if "\ud800" <= char <= "\udfff":
        return "a broken character (a lone UTF-16 surrogate)"
    return f"a control character (U+{ord(char):04X})"


def _label(name: str) -> str:
    """A field's name for a message: as it is, unless the name itself is the problem."""
    if _BAD_IN_NAME.search(name) or len(name) > 60:
        return "a field name"
    return f"'{name}'"


def check_name(name: str, where: str) -> None:
    """Refuse a field name (`where`: "query", "form", "JSON") with a control character or too long."""
    bad = _BAD_IN_NAME.search(name)
    if bad:
        raise BadInput(f"A {where} field name holds {_what(bad.group())}.")
    if len(name) > MAX_NAME:
        raise BadInput(f"A {where} field name is too long (at most {MAX_NAME} characters).")


def check_value(name: str, value: str, where: str) -> None:
    """Refuse a value with a control character (tab, LF, CR allowed) or longer than MAX_VALUE."""
    bad = _BAD_IN_VALUE.search(value)
    if bad:
        raise BadInput(f"The {where} field {_label(name)} holds {_what(bad.group())}.")
    if len(value) > MAX_VALUE:
        raise BadInput(f"The {where} field {_label(name)} is too long (at most {MAX_VALUE} characters).")


def check_path(path: str) -> None:
    bad = _BAD_IN_NAME.search(path)
    if bad:
        raise BadInput(f"The address holds {_what(bad.group())}.")
    if len(path) > MAX_PATH:
        raise BadInput(f"The address is too long (at most {MAX_PATH} characters).")


def check_next(value: str) -> None:
    """`next` names a page of this site: a path (``/…``), not ``//host`` or ``/\\host``."""
    if value and (not value.startswith("/") or value[1:2] in ("/", "\\")):
        raise BadInput("'next' must be a page of this site (a path starting with /).")


def check_fields(fields, where: str) -> None:
    """Every name and value of a QueryDict (`fields`)."""
    for name, values in fields.lists():
        check_name(name, where)
        for value in values:
            check_value(name, value, where)
            if name == "next":
                check_next(value)


def check_json(data, where: str = "JSON", name: str = "") -> None:
    """Every key and string of a parsed JSON document."""
    if isinstance(data, str):
        check_value(name or "(the body)", data, where)
    elif isinstance(data, dict):
        for key, value in data.items():
            check_name(key, where)
            check_json(value, where, key)
    elif isinstance(data, list):
        for item in data:
            check_json(item, where, name)


def read_json(body: bytes) -> object:
    """A JSON body, parsed within bounds, or BadInput."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        raise BadInput("The JSON body is not UTF-8 text.") from None
    if wsjson.nesting_depth(text) > MAX_JSON_DEPTH:
        raise BadInput(f"The JSON body is nested too deeply (at most {MAX_JSON_DEPTH} levels).")
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        raise BadInput("The body is not valid JSON.") from None


def cookie_ok(value: str) -> bool:
    return len(value) <= MAX_COOKIE and not _BAD_IN_NAME.search(value)


def check_request(request) -> None:
    """Raise BadInput for a request no view should see (see the module's docstring); drop bad
    cookies."""
    check_path(request.path_info)
    if len(request.META.get("QUERY_STRING", "")) > MAX_QUERY:
        raise BadInput(f"The query string is too long (at most {MAX_QUERY} characters).")
    check_fields(request.GET, "query")
    for name, value in list(request.COOKIES.items()):
        if not cookie_ok(name) or not cookie_ok(value):
            del request.COOKIES[name]
    if request.method in ("GET", "HEAD", "OPTIONS"):
        return
    content_type = request.content_type or ""
    try:
        if content_type == "application/json" or content_type.endswith("+json"):
            check_json(read_json(request.body))
        else:
            check_fields(request.POST, "form")
    except (MultiPartParserError, TooManyFilesSent, UnicodeDecodeError) as exc:
        raise BadInput(f"The form could not be read ({exc}).") from None
    except RequestDataTooBig:
        raise BadInput("The request is too large.") from None
    except TooManyFieldsSent:
        raise BadInput("The form has too many fields.") from None


def refusal(request, message: str, status: int = 400, title: str = "Bad request") -> HttpResponse:
    """The answer to bad input: plain text for htmx, JSON for a ``.json`` address, else a page."""
    if request.headers.get("HX-Request"):
        return HttpResponse(message, status=status, content_type="text/plain; charset=utf-8")
    if request.path_info.endswith(".json"):
        return JsonResponse({"error": message}, status=status)
    return render(request, "message.html", {"title": title, "message": message}, status=status)


class BadInputMiddleware:
    """See the module's docstring. First in MIDDLEWARE, before the session middleware reads the
    session cookie."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        try:
            check_request(request)
        except BadInput as exc:
            return refusal(request, exc.message)
        return self.get_response(request)

    def process_exception(self, request, exception):
        if isinstance(exception, params.BadNumber):
            return refusal(request, exception.message)
        if isinstance(exception, (IntegrityError, DataError)) and request.path_info.startswith("/admin/"):
            logger.warning("the admin's change was refused by the database: %s", exception)
            return refusal(
                request,
                "The database refused this change (a duplicate, a missing link or a value it cannot "
                f"store: {str(exception).splitlines()[0][:200]}). Nothing was saved.",
                status=409,
                title="Not saved",
            )
        return None
