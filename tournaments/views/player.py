"""A player's own pages and actions: their page, their table's result (report, confirm, dispute),
dropping out, their game in the app, and their draft pick at a table."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.db.models import Prefetch
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST, require_safe

from smashup import draft as kiq
from smashup.core import params

from .. import drafting, in_app, notices, services
from ..forms import DisputeForm, vp_from
from ..models import Draft, Entrant, Event, Seat, Table
from .common import (
    back_to,
    base_context,
    checked,
    confirm_page,
    event_or_404,
    forbidden,
    run_service,
    table_clocks,
)


def _my_games(event: Event, me: Entrant) -> list[dict]:
    seats = (
        Seat.objects.filter(entrant=me)
        .select_related("table__round")
        .prefetch_related(Prefetch("table__seats", queryset=Seat.objects.select_related("entrant")))
        .order_by("round__number")
    )
    games = []
    for seat in seats:
        table = seat.table
        confirmed = table.state == Table.State.CONFIRMED
        points = services.points_of(table, event) if confirmed else {}
        games.append(
            {
                "round": table.round,
                "table": table,
                "seat": seat,
                "others": [s.entrant.name for s in table.seats.all() if s.entrant_id != me.pk],
                "points": points.get(me.pk),
            }
        )
    byes = [
        {"round": b.round, "table": None, "bye": True, "points": None}
        for b in me.byes.select_related("round")
    ]
    return sorted(games + byes, key=lambda g: g["round"].number)


@require_safe
def notices_worker(request):
    """The service worker that lets phones show the player page's notices (scope /tournaments/)."""
    response = render(request, "tournaments/notices_sw.js", content_type="text/javascript")
    response["Cache-Control"] = "no-cache"
    return response


@require_safe
def game_table(request, pk, table_pk):
    """The tournament part of the page of a game played at a table (in_app.game_notes): the event,
    round, table and the clock the table plays to, refreshed by the game page every half minute.
    Public, as the projector is."""
    event = event_or_404(pk)
    table = get_object_or_404(
        Table.objects.select_related("round__event", "round__clock", "game"), pk=table_pk, round__event=event
    )
    if table.game_id is None:
        raise Http404("This table does not play in the app.")
    return render(request, "tournaments/_game_table.html", in_app.game_table(table))


@require_safe
def me_page(request, pk):
    """A player's own page: my table now (the result to enter or confirm), my factions, my games."""
    event = event_or_404(pk)
    context = base_context(request, event)
    me = context["me"]
    if me is None:
        return render(
            request,
            "tournaments/message.html",
            {
                "title": "Your page",
                "message": "This browser is not signed up for this event. Sign up on the event page, or open "
                "your player link (the organizer has it).",
                "link": reverse("tournaments:event", args=[event.pk]),
                "link_text": "Event page",
            },
        )
    rnd = context["round"]
    seat = table = bye_row = None
    bye = False
    if rnd is not None:
        seat = Seat.objects.filter(round=rnd, entrant=me).select_related("table").first()
        bye_row = rnd.byes.filter(entrant=me).first()
        bye = bye_row is not None
    if seat is not None:
        table = services.round_tables(rnd)
        table = next(t for t in table if t.pk == seat.table_id)
        table.points = services.points_of(table, event) if table.state == Table.State.CONFIRMED else {}
        table_clocks([table], context["clock"])
        seat = next(s for s in table.seats.all() if s.entrant_id == me.pk)
    draft = Draft.objects.filter(table=table).first() if table is not None else None
    draft_turn = (
        draft is not None
        and draft.status == Draft.Status.OPEN
        and kiq.current_picker(drafting.state_of(draft)) == me.pk
    )
    clock = context["clock"]
    alerts = notices.player_notices(
        event_name=event.name,
        round_number=rnd.number if rnd is not None else None,
        round_label=rnd.label if rnd is not None else "",
        round_finished=rnd is None or rnd.is_finished or event.is_finished,
        table_pk=table.pk if table is not None else None,
        table_number=table.number if table is not None else None,
        seat=seat.position + 1 if seat is not None else None,
        bye=bye,
        table_state=table.state if table is not None else "",
        result_version=table.result_version if table is not None else 0,
        reported_by=table.reported_by.name if table is not None and table.reported_by_id else "",
        reported_by_me=table is not None and table.reported_by_id == me.pk,
        confirmed=seat is not None and seat.confirmed,
        draft_turn=draft.version if draft_turn else None,
        clock_status=clock.status if clock is not None else "",
        warned=context["clock_warning"],
        promoted=me.promoted_at.isoformat() if me.promoted_at and not me.dropped else "",
        changes=seat.changes if seat is not None else bye_row.changes if bye_row is not None else 0,
    )
    context.update(
        {
            "notices": [n.as_dict() for n in alerts],
            "my_seat": seat,
            "table": table,
            "bye": bye,
            "draft": draft,
            "draft_turn": draft_turn,
            "games": _my_games(event, me),
            "link": request.build_absolute_uri(reverse("tournaments:private", args=[me.token])),
            "dispute_form": DisputeForm(),
            "in_app": in_app.player_panel(table, me, request.session.get("play_seats"), clock),
        }
    )
    return render(request, "tournaments/me.html", context)


def _player_table(request, event: Event, table_pk: int) -> tuple[Entrant | None, Table]:
    table = get_object_or_404(Table.objects.select_related("round"), pk=table_pk, round__event=event)
    return services.entrant_for(event, request.user, request.session), table


def _player_action(request, pk, table_pk, action, ok):
    event = event_or_404(pk)
    me, table = _player_table(request, event, table_pk)
    if me is None:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        return forbidden(request, "Only the players of this table (and the organizers) can do that.")
    try:
        action(me, table)
    except services.NotAllowed as exc:
        return forbidden(request, exc.message)
    except services.Unusual as exc:  # a result that looks mistyped: shown back before it is saved
        action = reverse("tournaments:report", args=[event.pk, table.pk])
        back = reverse("tournaments:me", args=[event.pk])
        return confirm_page(request, event, table, exc, action, "unusual_ok", "Send these VP", back)
    except (services.TournamentError, params.BadNumber) as exc:  # a malformed number: nothing done
        messages.error(request, exc.message)
    else:
        messages.success(request, ok)
    return back_to(request, event, "me")


@require_POST
def report(request, pk, table_pk):
    unusual_ok = checked(request, "unusual_ok")
    return _player_action(
        request,
        pk,
        table_pk,
        lambda me, table: services.report_result(table, me, vp_from(request.POST), unusual_ok=unusual_ok),
        "Result sent: the other players confirm it on their pages.",
    )


@require_POST
def confirm(request, pk, table_pk):
    return _player_action(
        request,
        pk,
        table_pk,
        lambda me, table: services.confirm_result(table, me, request.POST.get("result_version")),
        "Confirmed.",
    )


@require_POST
def dispute(request, pk, table_pk):
    form = DisputeForm(request.POST)
    form.is_valid()
    return _player_action(
        request,
        pk,
        table_pk,
        lambda me, table: services.dispute_result(table, me, form.cleaned_data.get("note", "")),
        "Disputed: an organizer will settle the result.",
    )


@require_POST
def drop_me(request, pk):
    event = event_or_404(pk)
    me = services.entrant_for(event, request.user, request.session)
    if me is None:
        return forbidden(request, "You are not signed up for this event.")
    run_service(request, lambda: services.drop(me, me), "You have dropped. Thanks for playing!")
    return redirect("tournaments:me", event.pk)


@require_POST
def play_my_game(request, pk):
    """ "Play your game": the player takes their own seat at their table's in-app game in this
    browser (tournaments.in_app.take_my_seat) and goes to it."""
    event = event_or_404(pk)
    me = services.entrant_for(event, request.user, request.session)
    game = None

    def take():
        nonlocal game
        game = in_app.take_my_seat(event, me, request.session)

    if run_service(request, take) and game is not None:
        return redirect("play:game", game.public_id)
    return redirect("tournaments:me", event.pk)


@require_safe
def draft_page(request, pk, table_pk):
    event = event_or_404(pk)
    context = base_context(request, event)
    table = get_object_or_404(Table.objects.select_related("round"), pk=table_pk, round__event=event)
    draft = get_object_or_404(Draft, table=table)
    names = dict(table.seats.values_list("entrant_id", "entrant__name"))
    view = drafting.draft_view(draft, names)
    me = context["me"]
    context.update(
        {
            "table": table,
            "d": view,
            "my_turn": view["turn"] is not None and me is not None and me.pk == view["turn"],
            "at_table": me is not None and me.pk in names,
        }
    )
    return render(request, "tournaments/draft.html", context)


@require_POST
def draft_pick(request, pk, table_pk):
    event = event_or_404(pk)
    table = get_object_or_404(Table, pk=table_pk, round__event=event)
    draft = get_object_or_404(Draft, table=table)
    me = services.entrant_for(event, request.user, request.session)
    manager = services.can_manage(request.user, event)
    if me is None and not manager:
        if not request.user.is_authenticated:
            return redirect_to_login(reverse("tournaments:draft", args=[event.pk, table.pk]))
        return forbidden(request, "Only the players of this table (and the organizers) can pick.")
    try:
        if request.POST.get("random") and manager:
            drafting.pick_for_current(draft.pk, request.user)
        else:
            drafting.choose(
                draft.pk,
                request.POST.get("faction", ""),
                request.POST.get("version"),
                entrant=me,
                user=request.user if manager else None,
            )
    except services.NotAllowed as exc:
        return forbidden(request, exc.message)
    except services.TournamentError as exc:
        messages.error(request, exc.message)
    return redirect("tournaments:draft", event.pk, table.pk)
