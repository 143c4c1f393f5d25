"""Exports (CSV and JSON) and the read-only JSON API of an event."""

from __future__ import annotations

import re

from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpResponse
from django.views.decorators.http import require_safe

from smashup.core import params

from .. import api, exports, services
from .common import (
    event_or_404,
    forbidden,
    json_response,
)


@require_safe
def export(request, pk, kind):
    """CSV exports: entrants (organizers only: it holds the check-in state), pairings, results, standings."""
    event = event_or_404(pk)
    if kind not in exports.KINDS:
        raise Http404("No such export.")
    if kind in exports.PRIVATE and not services.can_manage(request.user, event):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        return forbidden(request)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    slug = re.sub(r"[^A-Za-z0-9]+", "-", event.name).strip("-").lower() or "event"
    response["Content-Disposition"] = f'attachment; filename="{slug}-{kind}.csv"'
    exports.write(kind, event, response)
    return response


# ---------------------------------------------------------------------------------- JSON -------
@require_safe
def api_docs(request, pk):
    event_or_404(pk)
    return json_response(api.DOCS)


@require_safe
def api_standings(request, pk):
    return json_response(api.standings(event_or_404(pk)))


@require_safe
def api_pairings(request, pk):
    event = event_or_404(pk)
    try:  # ASCII digits only: str.isdigit() passes "²", which int() refuses (a 500 before)
        number = params.optional_number(request.GET.get("round"), "round", max_digits=5)
    except params.BadNumber:
        return json_response({"api": api.VERSION, "error": "round must be a round number"}, status=400)
    data = api.pairings(event, number)
    if data is None:
        return json_response({"api": api.VERSION, "error": f"this event has no round {number}"}, status=404)
    return json_response(data)


@require_safe
def export_json(request, pk):
    """The whole event as JSON, for its organizers (it holds accounts and check-in states)."""
    event = event_or_404(pk)
    if not services.can_manage(request.user, event):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        return forbidden(request)
    response = json_response(api.export(event))
    del response["Access-Control-Allow-Origin"]
    slug = re.sub(r"[^A-Za-z0-9]+", "-", event.name).strip("-").lower() or "event"
    response["Content-Disposition"] = f'attachment; filename="{slug}.json"'
    return response
