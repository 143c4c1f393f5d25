"""No 500 from any input (issue 28, finding 5): every URL pattern of the project, its path converters
filled with good and bad values, bad query strings, bad form and JSON bodies, and every form that the
pages show submitted with bad values, as an anonymous visitor, as the organizer of an event and (for
the admin) as a superuser, with DEBUG off on PostgreSQL. Nothing may answer 500.

The walk reads the URL patterns from Django's resolver, so a page added later is walked too: its
path parameters get a good value from ``GOOD`` (by parameter name) or fall back to a plain one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from urllib.parse import quote, urlsplit

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import default_token_generator
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from smashup.play import services as play
from tournaments import clock as clocks
from tournaments import services as events
from tournaments.models import Entrant, Event
from tournaments.services import leagues

from .play_helpers import eager_bots, person_vs_bot, resume_path

pytestmark = pytest.mark.django_db(transaction=True)

# Bad values for path parameters, query strings and form fields: a NUL byte (PostgreSQL refuses it in
# any text), other control characters, a very long value, Unicode digits that str.isdigit() accepts and
# int() does not (or reads as another number), signs and huge numbers.
BAD = [
    "\x00",
    "a\x00b",
    "\x01\x08\x1b[31m\x7f",
    "x" * 5000,
    "\u00b2",
    "\u0663",
    "-1",
    "9" * 40,
    "1e9",
    "%",
    '["\\u0000"]',  # a NUL in JSON's own escape, for fields read as JSON
]
# What the query-string and body walks put each bad value under: the names our views read.
PARAM_NAMES = [
    "seat", "as", "seq", "step", "round", "next", "code", "since", "part", "hot", "format", "name",
    "email", "username", "password", "faction", "faction0", "faction1", "picks", "table", "rank",
    "minutes", "vp", "a", "b", "kind", "note", "decision", "options", "version", "player_cap", "q", "o",
    "p", "_changelist_filters", "all",
]  # fmt: skip
# POSTs that end the visitor's session: the walk must stay logged in.
SKIP_POST = {"/accounts/logout/", "/admin/logout/"}


# ---------------------------------------------------------------------------------- the world ----
@dataclass
class World:
    event: Event
    entrant: Entrant
    game_live: object
    game_waiting: object
    game_over: object
    organizer: object
    player: object
    superuser: object
    values: dict = field(default_factory=dict)


def build_world() -> World:
    User = get_user_model()
    organizer = User.objects.create_user("org", "org@example.org", "pw-organizer-1")
    co = User.objects.create_user("co", "co@example.org", "pw-co-organizer-1")
    player = User.objects.create_user("pat", "pat@example.org", "pw-player-1")
    superuser = User.objects.create_superuser("root", "root@example.org", "pw-root-1")
    event = events.create_event(organizer, name="Friday Smash", draft_mode=Event.DraftMode.NONE)
    events.add_co_organizer(event, "co", organizer)
    for i in range(7):
        events.register(event, f"P{i + 1:02d}", by=organizer, checked_in=True)
    entrant = events.register(event, user=player, by=organizer, checked_in=True)
    rnd = events.generate_round(event, organizer)
    clocks.start(rnd.clock, organizer)
    table = rnd.tables.order_by("number").first()
    events.set_self_check_in(event, True, organizer)
    event.refresh_from_db()
    game_live = person_vs_bot(seed=3)
    game_waiting = play.create_game([play.SeatSpec("person"), play.SeatSpec("person")], seed=4)
    with eager_bots():
        game_over = play.create_game([play.SeatSpec("bot"), play.SeatSpec("bot")], seed=5)
    series = leagues.create_series(organizer, **leagues.clean_settings("League", "3, 2, 1", "0", ""))
    leagues.add_event(series, event, organizer)
    world = World(event, entrant, game_live, game_waiting, game_over, organizer, player, superuser)
    seat_token = play.seat_link_token(game_waiting.seats.get(index=0))
    world.values = {
        "pk": str(event.pk),
        "number": "1",
        "table_pk": str(table.pk),
        "entrant_pk": str(entrant.pk),
        "user_id": str(co.pk),
        "secret": event.check_in_secret,
        "kind": "standings",
        "index": "0",
        "uidb64": urlsafe_base64_encode(force_bytes(player.pk)),
        "token:accounts": default_token_generator.make_token(player),
        "token:tournaments": entrant.token,
        "token:play:s": seat_token,
        "token:play:r": resume_path(game_live, 0).split("/")[3],
        "public_id": game_live.public_id,
        "public_id:t": game_waiting.public_id,
        "action:entrant_action": "checkin",
        "action:self_check_in": "open",
        "action:clock": "pause",
        "app_label": "tournaments",
        "url": "nothing-here",
        "series_pk": str(series.pk),
        "event_pk": str(event.pk),
    }
    return world


def good_value(world: World, url_name: str, route: str, name: str) -> str:
    """A value of path parameter `name` that finds something, for the pattern `url_name`."""
    values = world.values
    if name == "token":
        if route.startswith("accounts/"):
            return values["token:accounts"]
        if route.startswith("play/s/"):
            return values["token:play:s"]
        if route.startswith("play/r/"):
            return values["token:play:r"]
        return values.get(f"token:{url_name.split(':')[0]}", "token")
    if name == "public_id" and route.startswith("play/t/"):
        return values["public_id:t"]
    if name == "action":
        return values.get(f"action:{url_name.split(':')[-1]}", "open")
    if name == "object_id":
        return admin_object_id(url_name)
    return values.get(name, "1")


def admin_object_id(url_name: str) -> str:
    """The pk of the first row of the model an admin URL name (``admin:app_model_change``) is about."""
    match = re.fullmatch(r"admin:(\w+?)_(\w+)_(change|delete|history)", url_name)
    if not match:
        return "1"
    for model in apps.get_models():
        if f"{model._meta.app_label}_{model._meta.model_name}" == f"{match[1]}_{match[2]}":
            first = model._default_manager.order_by("pk").first()
            return str(first.pk) if first else "1"
    return "1"


# ---------------------------------------------------------------------------------- the patterns -
@dataclass
class Pattern:
    name: str  # namespace:name, or the route when unnamed
    route: str  # the route as text, for reports
    parts: list  # literal strings and ("param", name) tuples


_ROUTE_PARAM = re.compile(r"<(?:[^>:]+:)?([^>]+)>")


def _route_parts(route: str) -> list:
    parts: list = []
    last = 0
    for match in _ROUTE_PARAM.finditer(route):
        parts.append(route[last : match.start()])
        parts.append(("param", match[1]))
        last = match.end()
    parts.append(route[last:])
    return parts


def _regex_parts(regex: str) -> list:
    """A regex pattern (the admin's) as literal text and named groups; groups may nest parentheses."""
    text = regex.lstrip("^").rstrip("$").removesuffix("\\Z")
    parts: list = []
    i = 0
    literal = ""
    while i < len(text):
        if text.startswith("(?P<", i):
            end_name = text.index(">", i)
            name = text[i + 4 : end_name]
            depth, j = 1, end_name + 1
            while depth:
                depth += {"(": 1, ")": -1}.get(text[j], 0)
                j += 1
            parts.extend([literal, ("param", name)])
            literal = ""
            i = j
        elif text[i] == "\\" and i + 1 < len(text):
            literal += text[i + 1]
            i += 2
        else:
            literal += text[i]
            i += 1
    parts.append(literal)
    return parts


def _pattern_parts(pattern) -> list:
    route = getattr(pattern.pattern, "_route", None)
    if route is not None:
        return _route_parts(route)
    return _regex_parts(pattern.pattern.regex.pattern)


def all_patterns(resolver=None, prefix: list | None = None, namespace: str = "") -> list[Pattern]:
    resolver = resolver or get_resolver()
    prefix = prefix or []
    found = []
    for entry in resolver.url_patterns:
        parts = prefix + _pattern_parts(entry)
        if isinstance(entry, URLResolver):
            inner = f"{namespace}{entry.namespace}:" if entry.namespace else namespace
            found.extend(all_patterns(entry, parts, inner))
        elif isinstance(entry, URLPattern):
            route = "".join(p if isinstance(p, str) else f"<{p[1]}>" for p in parts)
            found.append(Pattern(f"{namespace}{entry.name}" if entry.name else route, route, parts))
    return found


def url_of(pattern: Pattern, values: dict[str, str]) -> str:
    return "/" + "".join(p if isinstance(p, str) else quote(values[p[1]], safe="") for p in pattern.parts)


def params_of(pattern: Pattern) -> list[str]:
    return [p[1] for p in pattern.parts if not isinstance(p, str)]


# ---------------------------------------------------------------------------------- forms --------
@dataclass
class Form:
    method: str
    action: str
    htmx: bool
    fields: list = field(default_factory=list)  # (name, default value)


class FormFinder(HTMLParser):
    """Every form of a page (its method, action and fields with their default values), and every
    element that posts by itself through htmx (``hx-post`` on a button or a link)."""

    def __init__(self, page_url: str):
        super().__init__(convert_charrefs=True)
        self.page_url = page_url
        self.forms: list[Form] = []
        self.current: Form | None = None
        self.select: str | None = None
        self.first_option = False
        self.textarea: str | None = None

    def handle_starttag(self, tag, attrs):
        a = {k: (v or "") for k, v in attrs}
        if tag == "form":
            method = "post" if (a.get("method", "").lower() == "post" or "hx-post" in a) else "get"
            action = a.get("hx-post") or a.get("hx-get") or a.get("action") or self.page_url
            self.current = Form(method, action, "hx-post" in a or "hx-get" in a)
            self.forms.append(self.current)
        elif tag in ("button", "a", "div", "input", "select") and "hx-post" in a and self.current is None:
            self.forms.append(Form("post", a["hx-post"], True))
        if self.current is None:
            return
        name = a.get("name")
        if tag == "input" and name:
            if a.get("type") in ("checkbox", "radio") and "checked" not in a:
                return
            self.current.fields.append((name, a.get("value", "")))
        elif tag == "button" and name:
            self.current.fields.append((name, a.get("value", "")))
        elif tag == "select" and name:
            self.select = name
            self.first_option = True
            self.current.fields.append((name, ""))
        elif tag == "option" and self.select:
            # The option the page selected, else the first one (as a browser sends it).
            fields = self.current.fields
            if "selected" in a or self.first_option:
                fields[-1] = (self.select, a.get("value", ""))
            self.first_option = False
        elif tag == "textarea" and name:
            self.textarea = name
            self.current.fields.append((name, ""))

    def handle_data(self, data):
        if self.current is not None and self.textarea:
            self.current.fields[-1] = (self.textarea, self.current.fields[-1][1] + data)

    def handle_endtag(self, tag):
        if tag == "form":
            self.current = None
        elif tag == "select":
            self.select = None
        elif tag == "textarea":
            self.textarea = None


def forms_of(page_url: str, html: str) -> list[Form]:
    finder = FormFinder(page_url)
    finder.feed(html)
    return finder.forms


# ---------------------------------------------------------------------------------- the walk -----
class Walk:
    """Sends requests and notes every one answered 500 (the client does not raise: DEBUG is off and
    the handler turns the exception into the 500 page, as in production)."""

    def __init__(self, client: Client):
        self.client = client
        self.failures: list[str] = []
        self.requests = 0

    def send(self, method: str, url: str, data=None, **extra):
        self.requests += 1
        response = getattr(self.client, method)(url, data, **extra)
        if response.status_code >= 500 and response.status_code != 503:
            exc = getattr(response, "exc_info", None)
            why = f"{exc[0].__name__}: {str(exc[1])[:120]}" if exc else ""
            shown = {k: (v[:40] + "..." if len(v) > 40 else v) for k, v in (data or {}).items()}
            self.failures.append(f"{method.upper()} {url[:160]!r} {shown if data else ''} -> "
                                 f"{response.status_code} {why}")  # fmt: skip
        return response


def walk_patterns(walk: Walk, world: World, patterns: list[Pattern], post: bool) -> list[tuple[str, str]]:
    """GET (and POST) each pattern with good values, with each path parameter bad in turn, with bad
    query strings and bad bodies. Returns the pages that answered 200 (for the form walk)."""
    pages = []
    for pattern in patterns:
        names = params_of(pattern)
        good = {n: good_value(world, pattern.name, pattern.route, n) for n in names}
        url = url_of(pattern, good)
        response = walk.send("get", url)
        if response.status_code == 200 and "html" in response.get("Content-Type", ""):
            pages.append((url, response.content.decode(errors="replace")))
        for bad in BAD:
            walk.send("get", url, {n: bad for n in PARAM_NAMES})
            for name in names:
                walk.send("get", url_of(pattern, {**good, name: bad}))
        if not post or url in SKIP_POST:
            continue
        for bad in BAD[:5]:
            walk.send("post", url, {n: bad for n in PARAM_NAMES})
            walk.send("post", url, {n: bad for n in PARAM_NAMES}, HTTP_HX_REQUEST="true")
        for name in names:
            walk.send("post", url_of(pattern, {**good, name: "\x00"}), {"name": "x"})
        for body in ('{"seq": "\\u0000", "name": "a\\u0000"}', '{"a": "\\ud800"}', "{nope", "[" * 5000):
            walk.send("post", url, body, content_type="application/json")
    return pages


def walk_forms(walk: Walk, pages: list[tuple[str, str]]) -> int:
    """Submit every form the pages show: all its fields bad at once (each bad value in turn), then
    each field NUL alone with the others as the page filled them."""
    seen = set()
    count = 0
    for page_url, html in pages:
        for form in forms_of(page_url, html):
            action = urlsplit(form.action).path or page_url
            key = (form.method, action, tuple(sorted(n for n, _ in form.fields)))
            if key in seen or action in SKIP_POST or not action.startswith("/"):
                continue
            seen.add(key)
            count += 1
            extra = {"HTTP_HX_REQUEST": "true"} if form.htmx else {}
            names = [n for n, _ in form.fields if n != "csrfmiddlewaretoken"]
            defaults = dict(form.fields)
            for bad in BAD:
                walk.send(form.method, action, {**defaults, **{n: bad for n in names}}, **extra)
            for name in names:
                walk.send(form.method, action, {**defaults, name: "a\x00"}, **extra)
    return count


def _client(user=None) -> Client:
    client = Client(raise_request_exception=False, REMOTE_ADDR="198.51.100.20")
    if user is not None:
        client.force_login(user)
    return client


def _report(walk: Walk) -> str:
    return f"{len(walk.failures)} of {walk.requests} requests answered 500:\n" + "\n".join(walk.failures[:60])


@pytest.fixture
def world(settings):
    settings.RATE_LIMIT_SCALE = 100_000  # the walk is one client sending thousands of requests
    settings.HEAVY_PAGES_WAIT = 30.0
    return build_world()


def site_patterns() -> list[Pattern]:
    return [p for p in all_patterns() if not p.route.startswith("admin/")]


@pytest.mark.parametrize("who", ["anonymous", "organizer"])
def test_no_page_of_the_site_answers_500_to_any_input(world, who):
    walk = Walk(_client(world.organizer if who == "organizer" else None))
    patterns = site_patterns()
    assert len(patterns) > 60  # the walk really found the site's pages
    pages = walk_patterns(walk, world, patterns, post=True)
    forms = walk_forms(walk, pages)
    assert forms > (20 if who == "organizer" else 5), forms
    assert not walk.failures, _report(walk)


def test_no_admin_page_answers_500_to_any_input(world):
    walk = Walk(_client(world.superuser))
    patterns = [p for p in all_patterns() if p.route.startswith("admin/")]
    assert len(patterns) > 30
    pages = walk_patterns(walk, world, patterns, post=False)
    walk_forms(walk, [page for page in pages if "/add/" in page[0] or "/change/" in page[0]])
    assert not walk.failures, _report(walk)


def test_a_bad_cookie_is_no_500(world):
    """A session or CSRF cookie with a NUL byte or another control character is a cookie the site
    never set: the request goes on as without it."""
    walk = Walk(_client())
    for bad in ("\x00" * 40, "abcdefgh\x00ijklmnop", "\x01" * 40, "x" * 5000):
        walk.client.cookies["sessionid"] = bad
        walk.client.cookies["csrftoken"] = bad
        for url in (
            "/",
            "/play/",
            f"/tournaments/{world.event.pk}/",
            f"/play/g/{world.game_live.public_id}/",
        ):
            walk.send("get", url)
        walk.send("post", "/accounts/login/", {"username": "org", "password": "x"})
    assert not walk.failures, _report(walk)


def test_the_walk_would_see_a_500(world, monkeypatch):
    """The positive control: a page that raises is reported, with its exception."""
    from smashup.core import views

    def broken(*args, **kwargs):
        raise RuntimeError("planted")

    monkeypatch.setattr(views, "render", broken)  # the home page renders through it
    walk = Walk(_client())
    walk_patterns(walk, world, [p for p in site_patterns() if p.name == "home"], post=False)
    assert walk.failures and "RuntimeError: planted" in walk.failures[0]
