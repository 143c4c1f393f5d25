"""The list of events, a new event, its settings and its co-organizers."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.db.models import Count, Q
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from .. import services
from ..forms import CoOrganizerForm, EventForm
from ..models import Event
from ..rules import layout_previews
from .common import (
    base_context,
    organizer_only,
    run_service,
)


@require_safe
def event_list(request):
    events = Event.objects.select_related("organizer").annotate(players=Count("entrants"))
    mine = archived = []
    if request.user.is_authenticated:
        own = events.filter(Q(organizer=request.user) | Q(co_organizers=request.user)).distinct()
        mine = list(own.filter(archived_at__isnull=True)[:20])
        archived = list(own.filter(archived_at__isnull=False)[:20])  # only its organizers see it
    listed = events.filter(archived_at__isnull=True)
    upcoming = list(listed.exclude(status=Event.Status.FINISHED).order_by("date", "pk")[:50])
    finished = list(listed.filter(status=Event.Status.FINISHED)[:20])
    context = {"mine": mine, "archived": archived, "upcoming": upcoming, "finished": finished}
    return render(request, "tournaments/list.html", context)


PREVIEW_COUNTS = (7, 10, 13, 17)  # player counts the layout preview shows besides the event's own


@require_http_methods(["GET", "HEAD", "POST"])
def event_new(request):
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    form = EventForm(request.POST or None, initial={"date": timezone.localdate()})
    if request.method == "POST" and form.is_valid():
        try:
            event = services.create_event(request.user, **form.settings())
        except services.TournamentError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(request, "The event is ready: add players or share its page so they sign up.")
            return redirect("tournaments:manage", event.pk)
    context = {"form": form, "event": None, "layouts": layout_previews(4, PREVIEW_COUNTS)}
    return render(request, "tournaments/event_form.html", context)


@organizer_only
@require_http_methods(["GET", "HEAD", "POST"])
def event_edit(request, event):
    form = EventForm(request.POST or None, instance=event)
    if request.method == "POST" and form.is_valid():
        try:
            services.update_event(event, request.user, **form.settings())
        except services.TournamentError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(request, "Settings saved.")
            return redirect("tournaments:manage", event.pk)
    event.refresh_from_db()
    context = base_context(request, event)
    players = event.entrants.filter(dropped=False).count()
    context.update(
        {
            "form": form,
            "co_form": CoOrganizerForm(),
            "co_organizers": list(event.co_organizers.all()),
            "layouts": layout_previews(event.table_size, [players, *PREVIEW_COUNTS]),
        }
    )
    return render(request, "tournaments/event_form.html", context)


@organizer_only
@require_POST
def co_organizer_add(request, event):
    form = CoOrganizerForm(request.POST)
    if form.is_valid():
        run_service(
            request,
            lambda: services.add_co_organizer(event, form.cleaned_data["username"], request.user),
            "Added {result} as a co-organizer.",
        )
    return redirect("tournaments:edit", event.pk)


@organizer_only
@require_POST
def co_organizer_remove(request, event, user_id):
    run_service(request, lambda: services.remove_co_organizer(event, user_id, request.user), "Removed.")
    return redirect("tournaments:edit", event.pk)
