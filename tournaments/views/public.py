"""The pages anyone may open: an event, its sign-up and check-in, standings, rules, rounds (and
their print-out), the live state the pages poll and the room's projector."""

from __future__ import annotations

import unicodedata

from django.contrib import messages
from django.db.models import Count, Q
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from smashup.core import limits

from .. import clock as clocks
from .. import services
from ..forms import NameForm
from ..models import TIEBREAKER_LABELS, TIEBREAKER_SHORT, Entrant, Event, Round
from ..rules import event_rules
from ..standings_table import standings_table
from .common import (
    back_to,
    base_context,
    current_round,
    event_or_404,
    organizer_only,
    page_clock,
    qr_svg,
    round_or_404,
    run_service,
    table_clocks,
    tables_context,
)


@require_safe
def event_page(request, pk):
    event = event_or_404(pk)
    context = base_context(request, event)
    entrants = list(event.entrants.all())
    share = request.build_absolute_uri(reverse("tournaments:event", args=[event.pk]))
    context.update(tables_context(context["round"], event))
    context["extra_time"] = table_clocks(context["tables"], context["clock"])
    context.update(
        {
            "entrants": entrants,
            "checked_in": sum(e.checked_in and not e.dropped for e in entrants),
            "planned_rounds": services.planned_rounds(event, len([e for e in entrants if not e.dropped])),
            "signup_form": NameForm(),
            "share_url": share,
            "share_qr": qr_svg(share, f"QR code of the page of {event.name}"),
            "tiebreakers": [TIEBREAKER_LABELS[t] for t in event.tiebreakers],
        }
    )
    if event.player_cap is not None:
        placed = sum(1 for e in entrants if not e.dropped and not e.waiting)
        waiting = sum(1 for e in entrants if e.waiting)
        context.update(
            {
                "places_left": max(0, event.player_cap - placed),
                "waiting_count": waiting,
                "full": placed >= event.player_cap or waiting > 0,
            }
        )
    return render(request, "tournaments/event.html", context)


@require_POST
@limits.throttle(
    "signup",
    "Too many sign-ups from this address.",
    applies=lambda request: not request.user.is_authenticated,  # people with an account sign up once
)
def signup(request, pk):
    event = event_or_404(pk)
    user = request.user if request.user.is_authenticated else None
    name = request.POST.get("name", "")
    if user is None and not name.strip():
        messages.error(request, "Enter your name to sign up.")
        return redirect("tournaments:event", event.pk)
    try:  # the name is checked by the service (tournaments.names): a clear message, nothing stored
        entrant = services.register(event, name, user=user)
    except services.TournamentError as exc:
        messages.error(request, exc.message)
        return redirect("tournaments:event", event.pk)
    services.remember_entrant(request.session, entrant)
    if entrant.waiting:
        messages.warning(
            request,
            f"The event is full: you are number {entrant.wait_rank} on the waitlist as {entrant.name}. "
            "This page tells you when a place opens for you.",
        )
        return redirect("tournaments:me", event.pk)
    messages.success(request, f"You are signed up as {entrant.name}. This page is yours for the event.")
    return redirect("tournaments:me", event.pk)


@require_http_methods(["GET", "HEAD", "POST"])
def private_link(request, token):
    """A player's private link (from the organizer or the sign-up). GET only shows whose link it is
    and one button; the POST of that button (CSRF-protected, so only from this page) makes this
    browser act for the player. A plain GET never switches: another site's link, image or redirect
    cannot turn a visitor into another player (whose "drop" would then drop that player)."""
    entrant = Entrant.objects.filter(token=token).select_related("event").first()
    if entrant is None:
        return render(
            request,
            "tournaments/message.html",
            {"title": "Player link", "message": "This player link is not valid."},
            status=404,
        )
    event = entrant.event
    current = services.entrant_for(event, request.user, request.session)
    if request.method == "POST":
        services.remember_entrant(request.session, entrant)
        return redirect("tournaments:me", entrant.event_id)
    if current is not None and current.pk == entrant.pk:
        return redirect("tournaments:me", entrant.event_id)  # already this player: nothing to switch
    context = base_context(request, event)
    context.update({"player": entrant, "current": current})
    response = render(request, "tournaments/private_link.html", context)
    # The link is a secret: never sent to another site from this page. (Not "no-referrer": the
    # browser would then send "Origin: null" with the button's POST, which CSRF refuses.)
    response["Referrer-Policy"] = "same-origin"
    return response


def _check_in_url(request, event: Event) -> str:
    path = reverse("tournaments:code_check_in", args=[event.pk, event.check_in_secret])
    return request.build_absolute_uri(path)


def self_check_in_panel(request, event: Event) -> dict | None:
    """The QR code of self check-in (while open), for the organizers' dashboard and projector only:
    the code proves presence in the room, so it never appears on a page anyone can open."""
    if not event.self_check_in_open or event.is_finished or not services.can_manage(request.user, event):
        return None
    url = _check_in_url(request, event)
    return {"url": url, "qr": qr_svg(url, f"QR code to check in at {event.name}")}


@require_http_methods(["GET", "HEAD", "POST"])
def code_check_in(request, pk, secret):
    """The link of the venue's QR code: GET shows one button, POST checks this device's player in."""
    event = event_or_404(pk)
    me = services.entrant_for(event, request.user, request.session)
    if request.method == "POST":
        try:
            services.self_check_in(event, me, secret)
        except services.TournamentError as exc:
            status = 403 if isinstance(exc, services.NotAllowed) else 409
            return _check_in_page(request, event, me, secret, error=exc.message, status=status)
        messages.success(request, "You are checked in. Pairings appear on this page.")
        return redirect("tournaments:me", event.pk)
    if not services.check_in_code_valid(event, secret):
        error = services.STALE_CODE
        if event.is_finished:
            error = "This event is over."
        elif not event.self_check_in_open:
            error = "Self check-in is closed: check in with the organizer."
        return _check_in_page(request, event, me, secret, error=error, status=403)
    return _check_in_page(request, event, me, secret)


def _check_in_page(request, event, me, secret, error: str = "", status: int = 200):
    context = base_context(request, event)
    context.update({"secret": secret, "error": error, "login_next": request.get_full_path()})
    return render(request, "tournaments/check_in.html", context, status=status)


@organizer_only
@require_POST
def self_check_in_action(request, event, action):
    actions = {
        "open": (lambda: services.set_self_check_in(event, True, request.user), "Self check-in is open."),
        "close": (lambda: services.set_self_check_in(event, False, request.user), "Self check-in is closed."),
        "rotate": (
            lambda: services.rotate_check_in_code(event, request.user),
            "New check-in code: the old one no longer works.",
        ),
    }
    if action not in actions:
        raise Http404("No such action.")
    run, ok = actions[action]
    run_service(request, run, ok)
    return back_to(request, event)


@require_safe
def standings_page(request, pk):
    event = get_object_or_404(Event, pk=pk)  # not event_or_404: its organizer is not on this page
    rounds = list(event.rounds_set.select_related("clock").order_by("number"))  # each one's .event: event
    context = base_context(request, event, rounds)
    table = standings_table(event)  # rendered rows, cached by the event's version
    # A final order exists only after a top cut: the Swiss rows (model instances) are read only then.
    has_cut = any(r.stage != Round.Stage.SWISS for r in rounds)
    me = context["me"]
    context.update(
        {
            "table_rows": table.html(me.pk if me else None),
            "leader": table.leader,
            "penalties": table.penalties,
            "final": services.final_standings(event, services.cached_standings(event)) if has_cut else None,
            "tiebreakers": [(TIEBREAKER_SHORT[t], TIEBREAKER_LABELS[t]) for t in event.tiebreakers],
            "swiss_done": sum(1 for r in rounds if r.stage == Round.Stage.SWISS and r.is_finished),
        }
    )
    return render(request, "tournaments/standings.html", context)


@require_safe
def rules_page(request, pk):
    """How this event's standings are decided: points, byes, each tie-breaker, the draw."""
    event = event_or_404(pk)
    context = base_context(request, event)
    context["rules"] = event_rules(event)
    return render(request, "tournaments/rules.html", context)


@require_safe
def round_page(request, pk, number):
    event = event_or_404(pk)
    context = base_context(request, event)
    rnd = round_or_404(event, number)
    context.update(tables_context(rnd, event))
    context.update(
        {"shown": rnd, "rounds": list(event.rounds_set.all()), "draw": services.published_draw(rnd)}
    )
    return render(request, "tournaments/round.html", context)


@require_safe
def round_print(request, pk, number):
    """Printable pairings: the tables, then every player alphabetically with their table."""
    event = event_or_404(pk)
    rnd = round_or_404(event, number)
    context = tables_context(rnd, event)
    where = []
    for table in context["tables"]:
        for seat in table.seats.all():
            where.append((seat.entrant.name, f"Table {table.number}", seat.position + 1))
    where += [(e.name, "Bye", "") for e in context["byes"]]
    where.sort(key=lambda w: w[0].lower())
    context.update({"event": event, "shown": rnd, "where": where})
    return render(request, "tournaments/round_print.html", context)


@never_cache
@require_safe
def live_state(request, pk):
    """For pages without a WebSocket: the event's version and its clock (they poll this)."""
    event = event_or_404(pk)
    clock = page_clock(current_round(event))  # (may call time first: then the version moved)
    version = Event.objects.filter(pk=event.pk).values_list("version", flat=True).get()
    return JsonResponse({"version": version, "clock": clocks.state(clock)})


FIND_PAGE = 45  # players per page of the projector's "find your table" (3 columns of 15, large type)


def find_your_table(tables, byes) -> list[tuple[str, str]]:
    """(name, where) for every player of a round, A to Z: what players look for on the big screen."""
    where = [(seat.entrant.name, f"Table {t.number}") for t in tables for seat in t.seats.all()]
    where += [(e.name, "Bye") for e in byes]
    return sorted(where, key=lambda w: alphabetical(w[0]))


def alphabetical(name: str) -> tuple[str, str]:
    """A sort key for names as people look them up: accents and case do not move a name, so "Émile"
    stands among the E's (a plain sort put it after Z) and "de Vries" among the D's."""
    plain = "".join(c for c in unicodedata.normalize("NFKD", name) if not unicodedata.combining(c))
    return plain.casefold(), name


@require_safe
def projector(request, pk):
    """The room's screen: the big clock; while a round is on, every player A to Z with their table
    (paging by itself in a large room); between rounds the standings (none before any result: no
    ranking of zeros); after the event the winner and the final standings."""
    event = event_or_404(pk)
    context = base_context(request, event)
    rnd = context["round"]
    context.update(tables_context(rnd, event))
    context["extra_time"] = table_clocks(context["tables"], context["clock"])
    share = request.build_absolute_uri(reverse("tournaments:event", args=[event.pk]))
    rows = services.cached_standings(event)
    played = any(r.games or r.byes for r in rows)
    final = services.final_standings(event, rows) if event.is_finished else None
    where = find_your_table(context["tables"], context["byes"]) if rnd and not rnd.is_finished else []
    context.update(
        {
            "rows": rows[:16] if played else [],
            "more": max(0, len(rows) - 16) if played else 0,
            "final": final[:16] if final else None,
            "find_pages": [where[i : i + FIND_PAGE] for i in range(0, len(where), FIND_PAGE)],
            "find_count": len(where),  # a large room: the clock makes room for the names
            "share_url": share,
            "share_qr": qr_svg(share, f"QR code of the page of {event.name}"),
            "check_in": self_check_in_panel(request, event) if rnd is None or rnd.is_finished else None,
        }
    )
    if rnd is None:
        counts = event.entrants.filter(dropped=False, wait_rank__isnull=True).aggregate(
            players=Count("pk"), checked_in=Count("pk", filter=Q(checked_in=True))
        )
        context["waiting"] = counts if counts["players"] else None
    return render(request, "tournaments/projector.html", context)
