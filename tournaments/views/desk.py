"""Pages of the organizer's desk and the judge, beside `views` (the same helpers, the same rules:
thin, `services` does the work): a list of players imported with a preview, judge calls (a
player's own, and the organizers marking them handled), penalties, tables kept for accessible
seats, moving a player to another table, pairing one table again, the QR code of a guest's seat
link, and random picks for everyone left in a draft.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from smashup.core import params

from .. import drafting, roster, services
from ..models import Draft, JudgeCall, Penalty, Round, Table
from ..rules import swap_summary
from .common import (
    back_to,
    base_context,
    event_or_404,
    forbidden,
    form_number,
    organizer_only,
    qr_svg,
    round_or_404,
    run_service,
)

MAX_UPLOAD = roster.MAX_CHARS * 4  # bytes: the list's characters in UTF-8 at most


# ---------------------------------------------------------------------------------- import -------
def _list_text(request) -> str:
    """The list from the form: an uploaded file (UTF-8, as a spreadsheet saves "CSV UTF-8") or the
    pasted text. Raises services.Invalid for a file that is too big or not UTF-8 text."""
    upload = request.FILES.get("file")
    if upload is None:
        return request.POST.get("text", "")
    if upload.size > MAX_UPLOAD:
        raise services.Invalid(f"The file is too big: a list has at most {roster.MAX_LINES:,} players.")
    try:
        return upload.read().decode("utf-8-sig")
    except UnicodeDecodeError:
        raise services.Invalid(
            'The file is not UTF-8 text: save it from the spreadsheet as "CSV UTF-8", or paste the list.'
        ) from None


@organizer_only
@require_http_methods(["GET", "HEAD", "POST"])
def players_import(request, event):
    """GET: the form. POST "preview": each line with what will happen or its error, nothing saved.
    POST "import": every player added (the same check again), or nobody and the lines shown."""
    context = base_context(request, event)
    context.update({"text": "", "check_in": False, "result": None, "error": ""})
    status = 200
    if request.method == "POST":
        check_in = request.POST.get("check_in") in ("1", "on")
        context["check_in"] = check_in
        try:
            text = _list_text(request)
            context["text"] = text
            if request.POST.get("action") == "import":
                result = services.import_players(event, text, request.user, check_in=check_in)
                if result.saved:
                    waiting = f", {result.waiting} of them on the waitlist" if result.waiting else ""
                    messages.success(
                        request, f"Added {result.added} player{'s' * (result.added != 1)}{waiting}."
                    )
                    return redirect("tournaments:manage", event.pk)
                context["error"] = "Nothing was added: correct the lines below, then try again."
            else:
                result = services.preview_import(event, text, request.user, check_in=check_in)
            context["result"] = result
        except services.TournamentError as exc:
            context["error"] = exc.message
            status = 400 if isinstance(exc, services.Invalid) else 409
    return render(request, "tournaments/players_import.html", context, status=status)


# ---------------------------------------------------------------------------------- judge calls --
def _me_or_refuse(request, event):
    me = services.entrant_for(event, request.user, request.session)
    if me is None:
        if not request.user.is_authenticated:
            return None, redirect_to_login(reverse("tournaments:me", args=[event.pk]))
        return None, forbidden(request, "Only the players of this event can call a judge.")
    return me, None


@require_POST
def judge_call(request, pk):
    """A player calls a judge (from their page or their table's draft)."""
    event = event_or_404(pk)
    me, refused = _me_or_refuse(request, event)
    if refused is not None:
        return refused
    run_service(
        request,
        lambda: services.call_judge(event, me, request.POST.get("note", "")),
        "A judge is called: one comes to you as soon as they can.",
    )
    return back_to(request, event, "me")


@require_POST
def judge_withdraw(request, pk, call_pk):
    """The player who called takes the call back."""
    event = event_or_404(pk)
    call = get_object_or_404(JudgeCall, pk=call_pk, event=event)
    me, refused = _me_or_refuse(request, event)
    if refused is not None:
        return refused
    try:
        services.withdraw_call(call, me)
    except services.NotAllowed as exc:
        return forbidden(request, exc.message)
    except services.TournamentError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, "Your judge call is taken back.")
    return back_to(request, event, "me")


@organizer_only
@require_POST
def judge_handled(request, event, call_pk):
    call = get_object_or_404(JudgeCall, pk=call_pk, event=event)
    run_service(
        request, lambda: services.handle_call(call, request.user), "Marked handled: {result.entrant.name}."
    )
    return back_to(request, event)


# ---------------------------------------------------------------------------------- the desk -----
@organizer_only
@require_safe
def judge_desk(request, event):
    """The judge's page: calls, penalties (give, revoke) and the tables players keep."""
    context = base_context(request, event)
    entrants = list(event.entrants.filter(wait_rank__isnull=True).order_by("name"))
    context.update(
        {
            "open_calls": services.open_calls(event),
            "closed_calls": list(
                JudgeCall.objects.filter(event=event)
                .exclude(status=JudgeCall.Status.OPEN)
                .select_related("entrant", "closed_by")
                .order_by("-closed_at", "-pk")[:20]
            ),
            "penalties": services.penalties_of(event),
            "kinds": Penalty.Kind.choices,
            "rounds": list(event.rounds_set.filter(stage=Round.Stage.SWISS).order_by("-number")),
            "players": entrants,
            "kept": [e for e in entrants if e.fixed_table],
            "max_vp_loss": services.MAX_VP_LOSS,
            "max_note": services.MAX_NOTE,
            "max_table": services.MAX_TABLE_NUMBER,
        }
    )
    return render(request, "tournaments/judge.html", context)


@organizer_only
@require_POST
def penalty_give(request, event):
    data = request.POST
    kind = data.get("kind", "")

    def give():
        vp = params.optional_number(data.get("vp"), "VP") if kind == Penalty.Kind.VP_LOSS else None
        return services.give_penalty(
            event,
            form_number(data.get("entrant"), "player"),
            kind,
            request.user,
            round_number=params.optional_number(data.get("round"), "round"),
            vp=vp,
            note=data.get("note", ""),
        )

    run_service(request, give, "Penalty recorded for {result.entrant.name}: it counts in the standings now.")
    return back_to(request, event, "judge")


@organizer_only
@require_POST
def penalty_revoke(request, event, penalty_pk):
    penalty = get_object_or_404(Penalty, pk=penalty_pk, event=event)
    run_service(
        request,
        lambda: services.revoke_penalty(penalty, request.user),
        "Penalty of {result.entrant.name} revoked.",
    )
    return back_to(request, event, "judge")


@organizer_only
@require_POST
def fixed_table(request, event):
    """A player keeps a table (an accessible seat), or no longer (an empty number)."""

    def keep():
        entrant = event.entrants.filter(pk=form_number(request.POST.get("entrant"), "player")).first()
        if entrant is None:
            raise services.Invalid("Choose a player of this event.")
        number = params.optional_number(request.POST.get("table"), "table", max_digits=3)
        return services.set_fixed_table(entrant, number, request.user)

    kept = bool(request.POST.get("table", "").strip())
    ok = (
        "{result.name} keeps table {result.fixed_table}."
        if kept
        else "{result.name} no longer keeps a table."
    )
    run_service(request, keep, ok)
    return back_to(request, event, "judge")


# ---------------------------------------------------------------------------------- moves --------
@organizer_only
@require_http_methods(["GET", "HEAD", "POST"])
def move(request, event, number):
    """GET (htmx, as the organizer picks a player and a table): the move's cost and warnings.
    POST: make it."""
    rnd = round_or_404(event, number)
    data = request.POST if request.method == "POST" else request.GET
    if request.method != "POST" and data.get("form"):
        return _move_form(request, event, rnd)
    try:
        who = params.optional_number(data.get("entrant"), "player")
        where = params.optional_number(data.get("table"), "table")
    except params.BadNumber as exc:
        if request.method == "POST":
            messages.error(request, exc.message)
            return back_to(request, event)
        return render(
            request, "tournaments/_swap_check.html", {"check": None, "error": exc.message}, status=400
        )
    if request.method == "POST":
        try:
            warnings = services.move_player(rnd, who, where, request.user)
        except services.TournamentError as exc:
            messages.error(request, exc.message)
        else:
            text = "Moved." + (" Warnings: " + "; ".join(warnings) if warnings else " No warnings.")
            (messages.warning if warnings else messages.success)(request, text)
        return back_to(request, event)
    check, error = None, None
    if who is not None and where is not None:
        try:
            check = services.check_move(rnd, who, where)
        except services.TournamentError as exc:
            error = exc.message
    summary = swap_summary(check) if check is not None else []
    return render(
        request, "tournaments/_swap_check.html", {"check": check, "summary": summary, "error": error}
    )


def _move_form(request, event, rnd: Round):
    """The move's form: who can move (the round's seated players) and where (its tables with a free
    seat). A fragment for the dashboard's htmx, else a page of its own."""
    tables = services.round_tables(rnd)
    movers = sorted(
        ((s.entrant_id, f"{s.entrant.name} (table {t.number})") for t in tables for s in t.seats.all()),
        key=lambda x: x[1].lower(),
    )
    room = [
        (t.pk, f"Table {t.number} ({len(t.seats.all())} player{'s' * (len(t.seats.all()) != 1)})")
        for t in tables
        if len(t.seats.all()) < event.table_size
    ]
    context = {"event": event, "shown": rnd, "movers": movers, "room_tables": room}
    if request.headers.get("HX-Request"):
        return render(request, "tournaments/_move_form.html", context)
    context.update(base_context(request, event))
    return render(request, "tournaments/move.html", context)


# ---------------------------------------------------------------------------------- re-pairing ---
@organizer_only
@require_http_methods(["GET", "HEAD", "POST"])
def repair(request, event, number):
    """GET `form`: the form (the round's tables that can still change); GET `table` (htmx, as the
    organizer picks one): who would move where and the warnings. POST: pair it again."""
    rnd = round_or_404(event, number)
    data = request.POST if request.method == "POST" else request.GET
    if request.method != "POST" and data.get("form"):
        tables = services.round_tables(rnd)
        free = {t.pk for t in services.free_tables(rnd)}
        choices = [
            (t.pk, f"Table {t.number}: " + ", ".join(s.entrant.name for s in t.seats.all()))
            for t in tables
            if t.pk in free
        ]
        context = {"event": event, "shown": rnd, "repair_tables": choices}
        if request.headers.get("HX-Request"):
            return render(request, "tournaments/_repair_form.html", context)
        context.update(base_context(request, event))
        return render(request, "tournaments/repair.html", context)
    try:
        table = params.optional_number(data.get("table"), "table")
    except params.BadNumber as exc:
        if request.method == "POST":
            messages.error(request, exc.message)
            return back_to(request, event)
        return render(request, "tournaments/_repair_check.html", {"error": exc.message}, status=400)
    if request.method == "POST":
        try:
            result = services.repair_table(rnd, table, request.user)
        except services.TournamentError as exc:
            messages.error(request, exc.message)
        else:
            warnings = list(result.check.warnings)
            text = f"Paired again: {len(result.moved)} players moved." + (
                " Warnings: " + "; ".join(warnings) if warnings else " No warnings."
            )
            (messages.warning if warnings else messages.success)(request, text)
        return back_to(request, event)
    result, error = None, None
    if table is not None:
        try:
            result = services.check_repair(rnd, table)
        except services.TournamentError as exc:
            error = exc.message
    return render(request, "tournaments/_repair_check.html", _repair_preview(rnd, result, error))


def _repair_preview(rnd: Round, result, error: str | None) -> dict:
    if result is None:
        return {"result": None, "error": error}
    numbers = list(rnd.tables.order_by("number").values_list("number", flat=True))
    moves = [(name, numbers[a], numbers[b]) for name, a, b in result.moved]
    return {
        "result": result,
        "error": error,
        "moves": moves,
        "check": result.check,
        "summary": swap_summary(result.check),
    }


# ---------------------------------------------------------------------------------- QR codes -----
@organizer_only
@require_safe
def seat_qr(request, event, table_pk, index):
    """The QR code of a guest's seat link at a table playing in the app (SVG), for the dashboard:
    a guest scans it from the organizer's screen. Only while the seat is free (the link then dies)."""
    from smashup.play import services as play

    table = get_object_or_404(Table.objects.select_related("game"), pk=table_pk, round__event=event)
    if table.game is None:
        raise Http404("This table does not play in the app.")
    seats = list(table.game.seats.select_related("game").order_by("index"))
    players = list(table.seats.order_by("position").values_list("entrant__name", "entrant__user_id"))
    if not 0 <= index < min(len(seats), len(players)) or seats[index].taken or seats[index].is_bot:
        raise Http404("This seat is taken: its link no longer works.")
    name, account = players[index]
    if account is not None:
        raise Http404("This player plays with their account: their seat has no link.")
    link = request.build_absolute_uri(reverse("play:seat_link", args=[play.seat_link_token(seats[index])]))
    svg = qr_svg(link, f"QR code of the seat link of {name}")
    response = HttpResponse(svg, content_type="image/svg+xml; charset=utf-8")
    response["Cache-Control"] = "private, no-store"  # it carries the seat's secret
    return response


# ---------------------------------------------------------------------------------- draft --------
@organizer_only
@require_POST
def draft_random_rest(request, event, table_pk):
    """Random picks (and bans) for everyone left in this table's draft."""
    table = get_object_or_404(Table, pk=table_pk, round__event=event)
    draft = get_object_or_404(Draft, table=table)
    made = []
    if run_service(
        request,
        lambda: made.extend(
            drafting.pick_rest_at_random(draft.pk, request.POST.get("version"), request.user)
        ),
    ):
        messages.success(request, f"The draft is done: {len(made)} random choice{'s' * (len(made) != 1)}.")
    return redirect("tournaments:draft", event.pk, table.pk)
