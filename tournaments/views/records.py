"""Pages across events: player profiles, ratings, faction statistics (per event, per series, of every
event) with their CSV and JSON exports, and series (leagues). Thin: parse, call
``services.records`` / ``services.leagues`` and the pure modules, render.

Series pages that change a series are for its organizers (`series_organizers_only`: not logged in,
to the login page; logged in without organizing it, 403). Everything else here is read-only and public,
as event standings are: a profile gathers what the events' own pages already show.
"""

from __future__ import annotations

import re
from functools import wraps

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from smashup.core import params

from .. import charts, stats
from .. import series as series_rules
from ..exports import SafeWriter
from ..models import Event, Series
from ..services import TournamentError, leagues, records
from .common import base_context, event_or_404, forbidden, json_response

# At most this many bars in a chart of pairs (the table lists them all).
PAIR_BARS = 12
# A pair is charted once it has been played this many times (fewer: noise).
PAIR_MIN_GAMES = 3


# ---------------------------------------------------------------------------------- charts -------
def _pct(value: float) -> str:
    return f"{value * 100:.0f} %"


def faction_charts(data: stats.FactionStats, where: str) -> dict:
    """The charts of a statistics page (each with its table beside it in the template)."""
    out = {}
    if data.factions:
        out["win_rate"] = charts.bar_chart(
            f"Win rate by faction, {where}",
            "Each faction's share of wins, a shared first counting as a share; the line on each bar is "
            "what chance gives at the tables it played.",
            [
                (
                    f.name,
                    f.win_rate,
                    f"{_pct(f.win_rate)} · {f.games} game{'s' * (f.games != 1)}",
                    f"{f.name}: {_pct(f.win_rate)} wins in {f.games} games "
                    f"(chance: {_pct(f.expected_win_rate)})",
                )
                for f in data.factions
            ],
            markers=[f.expected_win_rate for f in data.factions],
            marker_label="chance",
        )
        by_vp = sorted(data.factions, key=lambda f: (-f.average_vp, f.name))
        out["vp"] = charts.bar_chart(
            f"Average VP by faction, {where}",
            "The VP a player of each faction ended a game with, on average.",
            [
                (f.name, f.average_vp, f"{f.average_vp:.1f} VP", f"{f.name}: {f.average_vp:.1f} VP a game")
                for f in by_vp
            ],
        )
    pairs = [p for p in data.pairs if p.games >= PAIR_MIN_GAMES][:PAIR_BARS]
    if pairs:
        out["pairs"] = charts.bar_chart(
            f"Win rate by pair of factions, {where}",
            f"The {len(pairs)} best pairs played at least {PAIR_MIN_GAMES} times, by share of wins; the "
            "line is what chance gives.",
            [
                (
                    p.name,
                    p.win_rate,
                    f"{_pct(p.win_rate)} · {p.games} games",
                    f"{p.name}: {_pct(p.win_rate)} wins in {p.games} games",
                )
                for p in pairs
            ],
            markers=[p.expected_win_rate for p in pairs],
            marker_label="chance",
        )
    picked = [p for p in data.picks if p.average_position is not None]
    if picked:
        out["picks"] = charts.bar_chart(
            f"Pick order in drafts, {where}",
            "How early each faction was picked: a short bar is an early pick (0 % is always the first "
            "pick of its draft, 100 % always the last).",
            [
                (
                    p.name,
                    p.average_position,
                    f"{_pct(p.average_position)} · pick {p.average_pick:.1f}",
                    f"{p.name}: on average pick {p.average_pick:.1f}, "
                    f"{_pct(p.average_position)} into its draft",
                )
                for p in picked
            ],
            scale_max=1.0,
        )
    return out


def _stats_context(data: stats.FactionStats, where: str, exports: dict) -> dict:
    return {"stats": data, "charts": faction_charts(data, where), "exports": exports}


def _csv_response(rows: list[list], filename: str) -> HttpResponse:
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    writer = SafeWriter(response)
    for row in rows:
        writer.writerow(row)
    return response


def _slug(name: str, default: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", name).strip("-").lower() or default


def _export_links(csv_name: str, json_name: str, **kwargs) -> dict:
    from django.urls import reverse

    return {
        "csv": [
            (kind, reverse(f"tournaments:{csv_name}", kwargs={**kwargs, "kind": kind}))
            for kind in stats.CSV_KINDS
        ],
        "json": reverse(f"tournaments:{json_name}", kwargs=kwargs),
    }


# ---------------------------------------------------------------------------------- statistics ---
@require_safe
def event_stats(request, pk):
    event = event_or_404(pk)
    context = base_context(request, event)
    data = records.faction_stats([event.pk])
    context.update(
        _stats_context(data, f"at {event.name}", _export_links("event_stats_csv", "event_stats_json", pk=pk))
    )
    context["ratings"] = records.event_ratings(event)
    context["series_list"] = list(event.series.order_by("name"))
    return render(request, "tournaments/stats_event.html", context)


@require_safe
def event_stats_csv(request, pk, kind):
    event = event_or_404(pk)
    if kind not in stats.CSV_KINDS:
        raise Http404("No such export.")
    rows = stats.csv_rows(records.faction_stats([event.pk]), kind)
    return _csv_response(rows, f"{_slug(event.name, 'event')}-{kind}.csv")


@require_safe
def event_stats_json(request, pk):
    event = event_or_404(pk)
    data = records.faction_stats([event.pk]).as_dict()
    return json_response(
        {"event": {"id": event.pk, "name": event.name, "date": event.date.isoformat()}, **data}
    )


@require_safe
def all_stats(request):
    data = records.faction_stats(None)
    context = _stats_context(data, "every event", _export_links("all_stats_csv", "all_stats_json"))
    context["events"] = Event.objects.count()
    return render(request, "tournaments/stats_all.html", context)


@require_safe
def all_stats_csv(request, kind):
    if kind not in stats.CSV_KINDS:
        raise Http404("No such export.")
    return _csv_response(stats.csv_rows(records.faction_stats(None), kind), f"all-events-{kind}.csv")


@require_safe
def all_stats_json(request):
    return json_response({"events": "all", **records.faction_stats(None).as_dict()})


# ---------------------------------------------------------------------------------- players ------
@require_safe
def profile(request, user_id):
    user = get_object_or_404(get_user_model(), pk=user_id, is_active=True)
    found = records.profile(user)
    if found is None:
        raise Http404("This account has not played in any event.")
    line = None
    if len(found.history) >= 2:
        line = charts.line_chart(
            f"Rating of {found.name}, event by event",
            f"From {found.history[0][0]:.1f} before the first rated event to {found.history[-1][0]:.1f} now, "
            f"after {len(found.history) - 1} event{'s' * (len(found.history) != 2)}.",
            found.history,
        )
    factions = None
    if found.faction_games:
        factions = charts.bar_chart(
            f"Factions {found.name} played",
            "Games played with each faction (each game counts for both factions of the pair).",
            [
                (f, games, f"{games} game{'s' * (games != 1)}", f"{f}: {games} games")
                for f, games, _ in found.faction_games
            ],
        )
    return render(
        request,
        "tournaments/profile.html",
        {"profile": found, "line": line, "factions_chart": factions, "is_me": request.user == user},
    )


@require_safe
def ratings_page(request):
    return render(request, "tournaments/ratings.html", {"board": records.leaderboard()})


# ---------------------------------------------------------------------------------- series -------
def series_organizers_only(view):
    """Not logged in: to the login page. Logged in without organizing this series: 403."""

    @wraps(view)
    def wrapper(request, series_pk, *args, **kwargs):
        series = get_object_or_404(Series, pk=series_pk)
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not leagues.can_manage_series(request.user, series):
            return forbidden(request, "Only the organizers of this series can do that.")
        return view(request, series, *args, **kwargs)

    # Lets the permission tests list every series organizer view from the URLs.
    wrapper.series_organizers_only = True
    return wrapper


@require_safe
def series_list(request):
    return render(
        request,
        "tournaments/series_list.html",
        {"series_list": Series.objects.prefetch_related("events")[:100]},
    )


def _settings_from(post) -> dict:
    return leagues.clean_settings(
        post.get("name", ""),
        post.get("placings", ""),
        post.get("participation_points", ""),
        post.get("best_of", ""),
        post.get("description", ""),
    )


@require_http_methods(["GET", "HEAD", "POST"])
def series_new(request):
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    error = ""
    if request.method == "POST":
        try:
            created = leagues.create_series(request.user, **_settings_from(request.POST))
        except TournamentError as exc:
            error = exc.message
        else:
            messages.success(request, "The series is ready: add its events.")
            return redirect("tournaments:series_edit", created.pk)
    values = request.POST if request.method == "POST" else {"placings": "10, 8, 6, 5, 4, 3, 2, 1"}
    return render(
        request,
        "tournaments/series_form.html",
        {"series": None, "values": values, "error": error},
        status=400 if error else 200,
    )


@series_organizers_only
@require_http_methods(["GET", "HEAD", "POST"])
def series_edit(request, series):
    error = ""
    if request.method == "POST":
        try:
            leagues.update_series(series, request.user, **_settings_from(request.POST))
        except TournamentError as exc:
            error = exc.message
        else:
            messages.success(request, "Saved.")
            return redirect("tournaments:series_edit", series.pk)
    values = request.POST if request.method == "POST" else {
        "name": series.name,
        "description": series.description,
        "placings": series_rules.format_placings(series.placings),
        "participation_points": f"{series.participation_points:g}",
        "best_of": series.best_of or "",
    }  # fmt: skip
    context = {
        "series": series,
        "values": values,
        "error": error,
        "events": list(series.events.order_by("date", "pk")),
        "addable": leagues.addable_events(series, request.user),
    }
    return render(request, "tournaments/series_form.html", context, status=400 if error else 200)


@series_organizers_only
@require_POST
def series_add_event(request, series):
    try:
        event_pk = params.optional_number(request.POST.get("event"), "event") or 0
        event = leagues.add_event(series, event_pk, request.user)
    except (TournamentError, params.BadNumber) as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, f"Added {event.name}.")
    return redirect("tournaments:series_edit", series.pk)


@series_organizers_only
@require_POST
def series_remove_event(request, series, event_pk):
    try:
        leagues.remove_event(series, event_pk, request.user)
    except TournamentError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, "Removed the event from the series (the event itself is unchanged).")
    return redirect("tournaments:series_edit", series.pk)


@require_safe
def series_page(request, series_pk):
    series = get_object_or_404(Series, pk=series_pk)
    table = leagues.standings(series)
    return render(
        request,
        "tournaments/series.html",
        {
            "series": series,
            "table": table,
            "is_manager": leagues.can_manage_series(request.user, series),
            "rule_text": _rule_text(table.rule),
        },
    )


def _rule_text(rule: series_rules.PointsRule) -> str:
    places = ", ".join(f"{_ordinal(i)} {p:g}" for i, p in enumerate(rule.placings, 1))
    text = f"Points per final place: {places}; every other place {rule.participation:g}."
    if rule.best_of:
        text += f" Each player's best {rule.best_of} event{'s' * (rule.best_of != 1)} count."
    return text


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


@require_safe
def series_csv(request, series_pk):
    series = get_object_or_404(Series, pk=series_pk)
    table = leagues.standings(series)
    header = ["rank", "name", "guest", "points", "events"]
    header += [f"{e.name} ({e.date.isoformat()})" for e in table.counted]
    rows = [header]
    for line in table.lines:
        cells = [
            line.row.rank,
            line.name,
            "yes" if line.guest else "",
            f"{line.row.points:g}",
            line.row.events,
        ]
        for event in table.counted:
            score = line.row.per_event.get(event.pk)
            cells.append(
                ""
                if score is None
                else f"{score.place} ({score.points:g}{'' if score.counted else ', not counted'})"
            )
        rows.append(cells)
    return _csv_response(rows, f"{_slug(series.name, 'series')}-standings.csv")


@require_safe
def series_json(request, series_pk):
    series = get_object_or_404(Series, pk=series_pk)
    return json_response(leagues.standings_data(series, leagues.standings(series)))


@require_safe
def series_stats(request, series_pk):
    series = get_object_or_404(Series, pk=series_pk)
    ids = list(series.events.values_list("pk", flat=True))
    context = _stats_context(
        records.faction_stats(ids),
        f"in {series.name}",
        _export_links("series_stats_csv", "series_stats_json", series_pk=series.pk),
    )
    context["series"] = series
    return render(request, "tournaments/stats_series.html", context)


@require_safe
def series_stats_csv(request, series_pk, kind):
    series = get_object_or_404(Series, pk=series_pk)
    if kind not in stats.CSV_KINDS:
        raise Http404("No such export.")
    ids = list(series.events.values_list("pk", flat=True))
    return _csv_response(
        stats.csv_rows(records.faction_stats(ids), kind), f"{_slug(series.name, 'series')}-{kind}.csv"
    )


@require_safe
def series_stats_json(request, series_pk):
    series = get_object_or_404(Series, pk=series_pk)
    ids = list(series.events.values_list("pk", flat=True))
    return json_response(
        {"series": {"id": series.pk, "name": series.name}, **records.faction_stats(ids).as_dict()}
    )
