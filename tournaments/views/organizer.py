"""The organizer's dashboard and actions: entrants, rounds, results, no-shows, extra time, tables
played in the app, the round clock and swaps between tables."""

from __future__ import annotations

import re

from django.contrib import messages
from django.http import Http404
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from smashup import draft as kiq
from smashup.core import params

from .. import clock as clocks
from .. import in_app, services
from ..forms import ExtendForm, NameForm, vp_from
from ..models import Draft, Entrant, Event, Round, Table
from ..pairing.layout import describe as describe_layout
from ..rules import plural, swap_summary
from .common import (
    back_to,
    base_context,
    checked,
    confirm_page,
    current_round,
    form_number,
    organizer_only,
    page_clock,
    round_or_404,
    run_service,
    table_clocks,
    tables_context,
)
from .public import self_check_in_panel


@organizer_only
@require_safe
def manage(request, event):
    """The organizer's dashboard: the round in progress, its clock and tables, players, the log."""
    context = base_context(request, event)
    rnd = context["round"]
    entrants = list(event.entrants.select_related("user"))
    context.update(tables_context(rnd, event))
    seated = set()
    short_tables = []
    if rnd is not None:
        seated = {s.entrant_id for t in context["tables"] for s in t.seats.all()} | {
            b.pk for b in context["byes"]
        }
        if not rnd.is_finished:
            short_tables = [
                t
                for t in context["tables"]
                if t.state == Table.State.OPEN and len(t.seats.all()) < event.table_size
            ]
    drafts = {d.table_id: d for d in Draft.objects.filter(table__round=rnd)} if rnd else {}
    playing = rnd is not None and not rnd.is_finished and not event.is_finished
    for table in context["tables"]:
        table.live_draft = drafts.get(table.pk)
        # A no-show is marked while the table plays on cardboard (an app game decides its own result).
        table.can_no_show = playing and table.state == Table.State.OPEN and table.game_id is None
    context["extra_time"] = table_clocks(context["tables"], context["clock"])
    rounds = list(event.rounds_set.all())
    active = [e for e in entrants if not e.dropped and (e.checked_in or not event.require_check_in)]
    swaps = []
    if rnd is not None and rnd.stage == Round.Stage.SWISS and rnd.status == Round.Status.PAIRED:
        swaps = sorted(
            [
                (s.entrant_id, f"{s.entrant.name} (table {t.number})")
                for t in context["tables"]
                for s in t.seats.all()
            ]
            + [(e.pk, f"{e.name} (bye)") for e in context["byes"]],
            key=lambda x: x[1].lower(),
        )
    context.update(
        {
            "entrants": entrants,
            "active_count": len(active),
            "next_layout": describe_layout(len(active), event.table_size, event.layout)
            if len(active) >= 2
            else "",
            "planned_rounds": services.planned_rounds(event, len(active)),
            "seated": seated,
            "short_tables": short_tables,
            "disputes": [t for t in context["tables"] if t.state == Table.State.DISPUTED],
            "audit": list(event.audit.all()[:12]),
            "add_form": NameForm(),
            "extend_form": ExtendForm(initial={"minutes": 5}),
            "swaps": swaps,
            "factions": list(kiq.FACTIONS),
            "can_top_cut": event.top_cut
            and rnd is not None
            and rnd.stage == Round.Stage.SWISS
            and rnd.is_finished,
            "can_final": rnd is not None
            and rnd.stage not in (Round.Stage.SWISS, Round.Stage.FINAL)
            and rnd.is_finished,
            "next_stage": services.next_stage_name(rnd) if rnd is not None else "",
            "rounds": rounds,
            "earlier_rounds": [r for r in rounds if rnd is not None and r.number < rnd.number],
            "check_rematches": event.draft_mode == Event.DraftMode.EVENT
            and rnd is not None
            and rnd.stage == Round.Stage.SWISS
            and rnd.is_finished
            and not event.is_finished,
            "in_app": None,  # below, once the page of tables is known
            "waitlist": [e for e in sorted(entrants, key=lambda e: e.wait_rank or 0) if e.waiting],
            "placed_count": sum(1 for e in entrants if not e.dropped and not e.waiting),
            "started": services.has_started(event),
            "check_in": self_check_in_panel(request, event),
        }
    )
    context["room"] = event.player_cap is None or context["placed_count"] < event.player_cap
    context.update(dashboard_pages(request.GET, entrants, context["tables"]))
    shown = {t.pk for t in context["tables_page"]} if len(context["tables"]) > TABLES_PAGE else None
    context["in_app"] = in_app.organizer_panel(
        event, rnd, request.build_absolute_uri, context["clock"], shown, tables=context["tables"]
    )
    response = render(request, "tournaments/manage.html", context)
    # The template's indentation was a sixth of a large event's dashboard: lines lose their leading
    # blanks (the page has no <pre> or <textarea>, where they would count).
    response.content = LEADING_BLANKS.sub(b"\n", response.content)
    return response


LEADING_BLANKS = re.compile(rb"\n\s+")


PLAYERS_PAGE = 100  # players per page of the dashboard
TABLES_PAGE = 32  # tables per page of the dashboard (512 players: 4 pages, under 150 KB each)


def _page_number(value, pages: int) -> int:
    try:
        return min(max(1, int(value)), max(1, pages))
    except (TypeError, ValueError):
        return 1


def dashboard_pages(query, entrants: list, tables: list) -> dict:
    """A large event's dashboard in pages (512 entrants were 1.7 MB of HTML in one page): players and
    tables a page at a time, or those matching a name search (`q`: a table matches by any player)."""
    q = " ".join(str(query.get("q", "")).split())[:40]
    if q:
        needle = q.lower()
        entrants = [e for e in entrants if needle in e.name.lower()]
        tables = [t for t in tables if any(needle in s.entrant.name.lower() for s in t.seats.all())]
    player_pages = -(-len(entrants) // PLAYERS_PAGE) or 1
    table_pages = -(-len(tables) // TABLES_PAGE) or 1
    p = _page_number(query.get("players"), player_pages)
    t = _page_number(query.get("tables"), table_pages)
    return {
        "q": q,
        "entrants_page": entrants[(p - 1) * PLAYERS_PAGE : p * PLAYERS_PAGE],
        "tables_page": tables[(t - 1) * TABLES_PAGE : t * TABLES_PAGE],
        "player_pager": {"page": p, "pages": player_pages, "matching": len(entrants)},
        "table_pager": {"page": t, "pages": table_pages, "matching": len(tables)},
    }


@organizer_only
@require_safe
def audit_page(request, event):
    context = base_context(request, event)
    context["entries"] = list(event.audit.select_related("user")[:1000])
    return render(request, "tournaments/audit.html", context)


@organizer_only
@require_POST
def entrant_add(request, event):
    name = request.POST.get("name", "")
    if not name.strip():
        messages.error(request, "Enter the player's name.")
    else:
        try:
            added = services.register(event, name, by=request.user)
        except services.TournamentError as exc:
            messages.error(request, exc.message)
        else:
            if added.waiting:
                messages.warning(
                    request, f"The event is full: {added.name} is number {added.wait_rank} on the waitlist."
                )
            else:
                messages.success(request, f"Added {added.name} (checked in).")
    return back_to(request, event)


ENTRANT_ACTIONS = {
    "checkin": (lambda e, r: services.check_in(e, r.user), "Checked in {result.name}."),
    "uncheck": (lambda e, r: services.check_in(e, r.user, False), "{result.name} is no longer checked in."),
    "drop": (lambda e, r: services.drop(e, r.user), "{result.name} dropped."),
    "reinstate": (lambda e, r: services.reinstate(e, r.user), "Reinstated {result.name}."),
    "rename": (lambda e, r: services.rename(e, r.POST.get("name", ""), r.user), "Renamed to {result.name}."),
    "factions": (
        lambda e, r: services.set_factions(
            e, [r.POST.get("faction1", ""), r.POST.get("faction2", "")], r.user
        ),
        "Factions of {result.name} set.",
    ),
    "seat": (
        lambda e, r: services.seat_late(e, form_number(r.POST.get("table"), "table"), r.user),
        "{result.entrant.name} is seated.",
    ),
    "promote": (lambda e, r: services.promote(e, r.user), "{result.name} has a place."),
    "waitlist": (
        lambda e, r: services.move_on_waitlist(e, form_number(r.POST.get("rank"), "rank"), r.user),
        "{result.name} is number {result.wait_rank} on the waitlist.",
    ),
}


@organizer_only
@require_safe
def entrant_more(request, event, entrant_pk):
    """A player's less frequent controls (factions, rename, their private link): the dashboard loads
    them when its "More" opens (htmx); without JavaScript, a page of their own."""
    entrant = get_object_or_404(Entrant, pk=entrant_pk, event=event)
    back = reverse("tournaments:manage", args=[event.pk]) + f"#entrant-{entrant.pk}"
    context = {
        "event": event,
        "e": entrant,
        "factions": list(kiq.FACTIONS),
        "back": back,
        "link": request.build_absolute_uri(reverse("tournaments:private", args=[entrant.token])),
    }
    template = "tournaments/_entrant_more.html" if request.htmx else "tournaments/entrant_more.html"
    return render(request, template, context)


@organizer_only
@require_POST
def entrant_action(request, event, entrant_pk, action):
    entrant = get_object_or_404(Entrant, pk=entrant_pk, event=event)
    if action not in ENTRANT_ACTIONS:
        raise Http404("No such action.")
    run, ok = ENTRANT_ACTIONS[action]
    run_service(request, lambda: run(entrant, request), ok)
    return back_to(request, event)


@organizer_only
@require_POST
def player_cap(request, event):
    """Set or lift (empty) the player cap from the dashboard."""
    run_service(
        request,
        lambda: services.set_player_cap(
            event, params.optional_number(request.POST.get("player_cap"), "player cap"), request.user
        ),
        "Player cap saved.",
    )
    return back_to(request, event)


@organizer_only
@require_POST
def round_new(request, event):
    paired = []
    ok = run_service(
        request,
        lambda: paired.append(services.generate_round(event, request.user)) or paired[0],
        "{result.label} is paired.",
    )
    if ok:
        for line in services.repeated_tables(paired[0]):
            messages.warning(request, "A whole table meets again. " + line)
    return back_to(request, event)


@organizer_only
@require_POST
def round_undo(request, event):
    run_service(request, lambda: services.unpair_round(event, request.user), "Round {result} is taken back.")
    return back_to(request, event)


@organizer_only
@require_POST
def top_cut(request, event):
    run_service(request, lambda: services.start_top_cut(event, request.user), "The top cut is paired.")
    return back_to(request, event)


@organizer_only
@require_POST
def final(request, event):
    run_service(request, lambda: services.start_final(event, request.user), "The final is paired.")
    return back_to(request, event)


@organizer_only
@require_POST
def archive(request, event):
    """Archive the event (or bring it back, `restore`): out of the lists, everything kept."""
    restore = request.POST.get("restore") == "1"
    ok = "The event is listed again." if restore else "The event is archived: it is no longer listed."
    run_service(request, lambda: services.archive_event(event, request.user, archived=not restore), ok)
    return back_to(request, event, "edit")


@organizer_only
@require_POST
def finish(request, event):
    run_service(request, lambda: services.finish_event(event, request.user), "The event is finished.")
    return back_to(request, event)


@organizer_only
@require_POST
def result(request, event, table_pk):
    """Enter, settle or correct a table's result (any round). A correction says what it does not
    redo: later pairings and a top cut stay as they are (services.correction_effects)."""
    table = get_object_or_404(Table.objects.select_related("round"), pk=table_pk, round__event=event)
    correcting = table.is_confirmed
    ok = "Result corrected: the standings are recomputed." if correcting else "Result saved."
    options = {name: checked(request, name) for name in ("unusual_ok", "reseat_final")}
    game_running = table.game_id is not None and table.game.is_active
    try:
        services.set_result(table, vp_from(request.POST), request.user, **options)
    except (services.Unusual, services.AdvancingChanged) as exc:
        reseat = isinstance(exc, services.AdvancingChanged)
        if reseat and not exc.can_reseat:
            messages.error(request, exc.message)
            return back_to(request, event)
        action = reverse("tournaments:result", args=[event.pk, table.pk])
        field, label = (
            ("reseat_final", f"Correct it and pair the {exc.next_stage} again")
            if reseat
            else ("unusual_ok", "Save these VP")
        )
        back = request.POST.get("next") or reverse("tournaments:manage", args=[event.pk])
        if not url_has_allowed_host_and_scheme(back, {request.get_host()}, request.is_secure()):
            back = reverse("tournaments:manage", args=[event.pk])
        return confirm_page(request, event, table, exc, action, field, label, back)
    except (services.TournamentError, params.BadNumber) as exc:
        messages.error(request, exc.message)
        return back_to(request, event)
    messages.success(request, ok)
    if correcting:
        for note in services.correction_effects(table):
            messages.warning(request, note)
    if game_running:
        messages.warning(request, "Its game in the app still ran: it is ended, its own result ignored.")
    return back_to(request, event)


@organizer_only
@require_safe
def round_results(request, event, number):
    """Every table of one round with its result, to correct any of them (earlier rounds included);
    the page says first what a correction changes and what it does not."""
    context = base_context(request, event)
    rnd = round_or_404(event, number)
    context.update(tables_context(rnd, event))
    context.update(
        {
            "shown": rnd,
            "rounds": list(event.rounds_set.all()),
            "effects": services.round_correction_effects(rnd),
        }
    )
    return render(request, "tournaments/round_results.html", context)


def _seat_choice(request) -> int:
    return form_number(request.POST.get("entrant"), "entrant")


@organizer_only
@require_POST
def no_show(request, event, table_pk):
    """Mark a player of a running table as a no-show (0 VP, a loss); dropped unless `keep`."""
    table = get_object_or_404(Table, pk=table_pk, round__event=event)
    keep = request.POST.get("keep") in ("1", "on", "true")
    run_service(
        request,
        lambda: services.mark_no_show(table, _seat_choice(request), request.user, keep=keep),
        "{result.entrant.name} is marked as a no-show at table " + str(table.number) + ".",
    )
    return back_to(request, event)


@organizer_only
@require_POST
def no_show_undo(request, event, table_pk):
    """Take back a no-show mark. At a knockout stage whose next stage is seated it may change who
    goes through: refused, or (that stage not started) a page to confirm pairing it again."""
    table = get_object_or_404(Table.objects.select_related("round"), pk=table_pk, round__event=event)
    try:
        seat = services.undo_no_show(
            table, _seat_choice(request), request.user, reseat_final=checked(request, "reseat_final")
        )
    except services.AdvancingChanged as exc:
        if not exc.can_reseat:
            messages.error(request, exc.message)
            return back_to(request, event)
        action = reverse("tournaments:no_show_undo", args=[event.pk, table.pk])
        back = reverse("tournaments:manage", args=[event.pk])
        label = f"Take it back and pair the {exc.next_stage} again"
        return confirm_page(request, event, table, exc, action, "reseat_final", label, back)
    except (services.TournamentError, params.BadNumber) as exc:
        messages.error(request, exc.message)
        return back_to(request, event)
    messages.success(request, f"{seat.entrant.name} is back at table {table.number}.")
    return back_to(request, event)


@organizer_only
@require_POST
def table_extend(request, event, table_pk):
    """A judge call: extra minutes for one table (clock.extend_table)."""
    table = get_object_or_404(Table, pk=table_pk, round__event=event)
    form = ExtendForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Give a table 1 to 60 extra minutes.")
        return back_to(request, event)
    minutes = form.cleaned_data["minutes"]
    ok = f"Table {table.number} has {plural(minutes, 'more minute')}."
    run_service(request, lambda: clocks.extend_table(table, minutes * 60, request.user), ok)
    return back_to(request, event)


REMATCH_CACHE_SECONDS = 600


def rematch_check(event: Event):
    """`services.next_round_check` for the dashboard, cached by the event's version (a dry run of the
    pairing can take seconds at a large event; any change bumps the version)."""
    from django.core.cache import cache

    key = f"tournaments:rematch:{event.pk}:{event.version}"
    try:
        found = cache.get(key)
    except Exception:  # the cache is down: compute
        found = None
    if found is None:
        found = services.next_round_check(event) or "none"
        try:
            cache.set(key, found, REMATCH_CACHE_SECONDS)
        except Exception:
            pass
    return None if found == "none" else found


@organizer_only
@require_safe
def next_round_check(request, event):
    """The dashboard's warning before pairing (htmx fragment): whole tables the next round would
    seat again, in words."""
    context = {"event": event, "rematch": rematch_check(event)}
    return render(request, "tournaments/_rematch_check.html", context)


@organizer_only
@require_POST
def table_in_app(request, event, table_pk):
    """Start this table as a game in the app (tournaments.in_app)."""
    table = get_object_or_404(Table, pk=table_pk, round__event=event)
    ok = "Table started in the app: game {result.code}."
    run_service(request, lambda: in_app.start_table(table, request.user), ok)
    return back_to(request, event)


@organizer_only
@require_POST
def round_in_app(request, event):
    """Start every table of the current round that can play in the app."""
    rnd = current_round(event)
    if rnd is None:
        messages.error(request, "There is no round yet: pair a round first.")
        return back_to(request, event)
    try:
        started, skipped = in_app.start_round(rnd, request.user)
    except services.TournamentError as exc:
        messages.error(request, exc.message)
        return back_to(request, event)
    messages.success(request, f"{started} table{'s' * (started != 1)} started in the app.")
    for why in skipped:
        messages.warning(request, why)
    return back_to(request, event)


CLOCK_ACTIONS = {
    "start": (clocks.start, "The clock is running."),
    "pause": (clocks.pause, "The clock is paused."),
    "resume": (clocks.resume, "The clock is running again."),
    "call": (clocks.call_time, "Time is called."),
}


@organizer_only
@require_POST
def clock_action(request, event, action):
    rnd = current_round(event)
    clock = page_clock(rnd)
    if clock is None:
        messages.error(request, "There is no round clock yet: pair a round first.")
        return back_to(request, event)
    if action == "extend":
        form = ExtendForm(request.POST)
        if not form.is_valid():
            messages.error(request, "Extend by 1 to 60 minutes.")
            return back_to(request, event)
        minutes = form.cleaned_data["minutes"]
        run_service(
            request, lambda: clocks.extend(clock, minutes * 60, request.user), f"Added {minutes} minutes."
        )
        return back_to(request, event)
    if action not in CLOCK_ACTIONS:
        raise Http404("No such clock action.")
    run, ok = CLOCK_ACTIONS[action]
    run_service(request, lambda: run(clock, request.user), ok)
    return back_to(request, event)


@organizer_only
@require_http_methods(["GET", "HEAD", "POST"])
def swap(request, event, number):
    """GET (htmx, as the organizer picks two players): the swap's cost and warnings. POST: do it."""
    rnd = round_or_404(event, number)
    data = request.POST if request.method == "POST" else request.GET
    try:
        a, b = params.optional_number(data.get("a"), "a"), params.optional_number(data.get("b"), "b")
    except params.BadNumber as exc:
        if request.method == "POST":
            messages.error(request, exc.message)
            return back_to(request, event)
        context = {"check": None, "error": exc.message, "a": data.get("a", ""), "b": data.get("b", "")}
        return render(request, "tournaments/_swap_check.html", context, status=400)
    if request.method == "POST":
        if a is None or b is None:
            messages.error(request, "Choose two players to swap.")
        else:
            try:
                warnings = services.swap_players(rnd, a, b, request.user)
            except services.TournamentError as exc:
                messages.error(request, exc.message)
            else:
                text = "Swapped." + (" Warnings: " + "; ".join(warnings) if warnings else " No warnings.")
                (messages.warning if warnings else messages.success)(request, text)
        return back_to(request, event)
    check, error = None, None
    if a is not None and b is not None and a != b:
        try:
            check = services.check_swap(rnd, a, b)
        except services.TournamentError as exc:
            error = exc.message
    summary = swap_summary(check) if check is not None else []
    context = {"check": check, "summary": summary, "error": error, "a": a, "b": b}
    return render(request, "tournaments/_swap_check.html", context)
