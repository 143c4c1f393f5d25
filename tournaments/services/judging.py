"""Judge tools: a player calls a judge (the dashboard shows the call with the table, live), the
organizers mark it handled; penalties (warning, VP loss, game loss, disqualification) given and
revoked, each in the audit log; the standings count them (tournaments.penalties, through
``Penalty.standings_inputs``).

Part of ``tournaments.services`` (see its docstring); import from there."""

from __future__ import annotations

import unicodedata

from django.db import IntegrityError, transaction
from django.utils import timezone

from tournaments import penalties as rules

from ..models import Entrant, Event, JudgeCall, Penalty, Round, Seat
from .changes import Conflict, Invalid, NotAllowed, TournamentError, _changed, _lock, require_manager
from .entrants import latest_round

MAX_NOTE = 200
MAX_VP_LOSS = 99
KIND_WORDS = {
    Penalty.Kind.WARNING: "a warning",
    Penalty.Kind.VP_LOSS: "a VP loss",
    Penalty.Kind.GAME_LOSS: "a game loss",
    Penalty.Kind.DISQUALIFICATION: "a disqualification",
}
assert set(Penalty.Kind.values) == set(rules.KINDS)


def clean_note(note, what: str = "A note") -> str:
    """A short note on one line; refused (not trimmed) when too long or holding control or
    invisible characters, so what is saved is what was typed."""
    text = " ".join(str(note or "").split())
    if len(text) > MAX_NOTE:
        raise Invalid(f"{what} has at most {MAX_NOTE} characters.")
    if any(unicodedata.category(c) in ("Cc", "Cf", "Co", "Cs") for c in text):
        raise Invalid(f"{what} holds a control or invisible character: type it again.")
    return text


# ---------------------------------------------------------------------------------- judge calls --
def _where(event: Event, entrant: Entrant) -> tuple[Seat | None, Round | None]:
    """The player's seat in the event's latest round, and that round."""
    rnd = latest_round(event)
    if rnd is None:
        return None, None
    seat = Seat.objects.filter(round=rnd, entrant=entrant).select_related("table").first()
    return seat, rnd


def call_judge(event: Event, entrant: Entrant | None, note="") -> JudgeCall:
    """A player asks for a judge. One open call per player (a second press says it is on its way)."""
    note = clean_note(note)
    with transaction.atomic():
        event = _lock(event)
        if entrant is None or entrant.event_id != event.pk:
            raise NotAllowed("Only the players of this event can call a judge.")
        entrant = Entrant.objects.get(pk=entrant.pk)
        if event.is_finished:
            raise Conflict("This event is over.")
        if entrant.waiting:
            raise Conflict("You are on the waitlist: talk to an organizer at the desk.")
        if JudgeCall.objects.filter(entrant=entrant, status=JudgeCall.Status.OPEN).exists():
            raise Conflict("You have called a judge already: one is on the way.", "already_called")
        seat, rnd = _where(event, entrant)
        table = seat.table if seat is not None else None
        try:
            with transaction.atomic():
                call = JudgeCall.objects.create(
                    event=event,
                    entrant=entrant,
                    table=table,
                    table_number=table.number if table else None,
                    round_label=rnd.label if table else "",
                    note=note,
                )
        except IntegrityError:  # a second press in the same instant
            raise Conflict("You have called a judge already: one is on the way.", "already_called") from None
        where = f" at table {table.number} ({rnd.label.lower()})" if table else ""
        said = f": {note}" if note else "."
        _changed(
            event, entrant, "judge_call", f"{entrant.name} called a judge{where}{said}",
            call=call.pk, entrant=entrant.pk, table=table.pk if table else None,
        )  # fmt: skip
    return call


def _lock_call(call: JudgeCall | int) -> tuple[Event, JudgeCall]:
    pk = call.pk if isinstance(call, JudgeCall) else call
    event_id = JudgeCall.objects.filter(pk=pk).values_list("event_id", flat=True).first()
    if event_id is None:
        raise TournamentError("There is no such judge call.", "not_found")
    event = _lock(event_id)
    return event, JudgeCall.objects.select_related("entrant").get(pk=pk)


def handle_call(call: JudgeCall | int, by) -> JudgeCall:
    """An organizer marks a call handled (a judge went): it leaves the dashboard's open calls."""
    with transaction.atomic():
        event, call = _lock_call(call)
        require_manager(by, event)
        if not call.is_open:
            raise Conflict(
                f"This call of {call.entrant.name} is {call.get_status_display().lower()} already."
            )
        call.status, call.closed_at, call.closed_by = JudgeCall.Status.HANDLED, timezone.now(), by
        call.save(update_fields=["status", "closed_at", "closed_by"])
        where = f" at table {call.table_number}" if call.table_number else ""
        _changed(
            event, by, "judge_handled", f"Handled the judge call of {call.entrant.name}{where}.", call=call.pk
        )
    return call


def withdraw_call(call: JudgeCall | int, entrant: Entrant | None) -> JudgeCall:
    """The player who called takes the call back (sorted out at the table)."""
    with transaction.atomic():
        event, call = _lock_call(call)
        if entrant is None or entrant.pk != call.entrant_id:
            raise NotAllowed("Only the player who called can take the call back.")
        if not call.is_open:
            raise Conflict(f"This call is {call.get_status_display().lower()} already.")
        call.status, call.closed_at = JudgeCall.Status.WITHDRAWN, timezone.now()
        call.save(update_fields=["status", "closed_at"])
        _changed(
            event, entrant, "judge_withdrawn", f"{entrant.name} took back their judge call.", call=call.pk
        )
    return call


def open_calls(event: Event) -> list[JudgeCall]:
    """The calls waiting for a judge, the oldest first."""
    return list(JudgeCall.objects.filter(event=event, status=JudgeCall.Status.OPEN).select_related("entrant"))


def my_open_call(entrant: Entrant | None) -> JudgeCall | None:
    if entrant is None:
        return None
    return JudgeCall.objects.filter(entrant=entrant, status=JudgeCall.Status.OPEN).first()


# ---------------------------------------------------------------------------------- penalties ----
def _penalty_round(event: Event, entrant: Entrant, kind: str, round_number) -> tuple[int | None, Seat | None]:
    """The round a penalty names, and the player's seat in it (VP and game losses touch that game)."""
    if round_number in (None, ""):
        if kind not in rules.GAME_KINDS:
            last = latest_round(event)
            return (last.number if last else None), None
        seat = (
            Seat.objects.filter(round__event=event, entrant=entrant, round__stage=Round.Stage.SWISS)
            .select_related("table", "round")
            .order_by("-round__number")
            .first()
        )
        if seat is None:
            raise Conflict(f"{entrant.name} has played no game yet: {KIND_WORDS[kind]} needs one.")
        return seat.round.number, seat
    if isinstance(round_number, bool) or not isinstance(round_number, int):
        raise Invalid("Choose a round.")
    rnd = Round.objects.filter(event=event, number=round_number).first()
    if rnd is None:
        raise Invalid(f"There is no round {round_number} in this event.")
    if kind not in rules.GAME_KINDS:
        return rnd.number, None
    if rnd.stage != Round.Stage.SWISS:
        raise Conflict(
            f"{rnd.label} is in the top cut, where the result decides who goes through: correct the "
            "table's result instead."
        )
    seat = Seat.objects.filter(round=rnd, entrant=entrant).select_related("table").first()
    if seat is None:
        raise Conflict(f"{entrant.name} has no table in {rnd.label.lower()} (a bye, or not paired then).")
    return rnd.number, seat


def give_penalty(event: Event, entrant, kind, by, *, round_number=None, vp=None, note="") -> Penalty:
    """An organizer (a judge) gives a penalty. VP and game losses name the round of the game they
    touch (default: the player's latest game); a disqualification drops the player from the next
    round on. Refused, with nothing changed: an unknown kind or player, a VP loss outside 1 to
    MAX_VP_LOSS, a game the player did not play, a second game loss for one game or a game the
    player missed (a no-show is a loss already), a second disqualification."""
    note = clean_note(note)
    if kind not in rules.KINDS:
        raise Invalid("Choose a penalty: a warning, a VP loss, a game loss or a disqualification.")
    if kind == rules.VP_LOSS:
        if isinstance(vp, bool) or not isinstance(vp, int) or not 1 <= vp <= MAX_VP_LOSS:
            raise Invalid(f"A VP loss takes 1 to {MAX_VP_LOSS} VP.")
    else:
        vp = 0
    with transaction.atomic():
        event = _lock(event)
        require_manager(by, event)
        if event.is_finished:
            raise Conflict("This event is over.")
        pk = entrant.pk if isinstance(entrant, Entrant) else entrant
        found = isinstance(pk, int) and not isinstance(pk, bool) and pk > 0
        entrant = Entrant.objects.filter(event=event, pk=pk).first() if found else None
        if entrant is None:
            raise Invalid("Choose a player of this event.")
        if entrant.waiting:
            raise Conflict(f"{entrant.name} is on the waitlist and plays no game: no penalty.")
        number, seat = _penalty_round(event, entrant, kind, round_number)
        in_force = Penalty.objects.filter(event=event, entrant=entrant, revoked_at__isnull=True)
        if kind == rules.GAME_LOSS:
            if seat.no_show:
                raise Conflict(
                    f"{entrant.name} is a no-show at table {seat.table.number} of round {number}: that is a "
                    "loss already."
                )
            if in_force.filter(kind=kind, round_number=number).exists():
                raise Conflict(f"{entrant.name} has a game loss in round {number} already.")
        if kind == rules.DISQUALIFICATION and in_force.filter(kind=kind).exists():
            raise Conflict(f"{entrant.name} is disqualified already.")
        penalty = Penalty.objects.create(
            event=event, entrant=entrant, kind=kind, round_number=number, vp=vp, note=note, given_by=by
        )
        then = ""
        if kind == rules.DISQUALIFICATION and not entrant.dropped:
            last = latest_round(event)
            entrant.dropped, entrant.dropped_after = True, last.number if last else 0
            entrant.save(update_fields=["dropped", "dropped_after"])
            then = "; they are dropped from the next round on and listed last in the standings"
        why = f" ({note})." if note else "."
        _changed(
            event, by, "penalty", f"Penalty for {entrant.name}: {_describe(penalty, seat)}{then}{why}",
            penalty=penalty.pk, entrant=entrant.pk, kind=kind, round=number, vp=vp,
        )  # fmt: skip
    return penalty


def _describe(penalty: Penalty, seat: Seat | None = None) -> str:
    where = f" (table {seat.table.number})" if seat is not None else ""
    if penalty.kind == Penalty.Kind.VP_LOSS:
        return f"a loss of {penalty.vp} VP in round {penalty.round_number}{where}"
    if penalty.kind == Penalty.Kind.GAME_LOSS:
        return f"a game loss in round {penalty.round_number}{where}"
    when = f" in round {penalty.round_number}" if penalty.round_number else ""
    return KIND_WORDS[penalty.kind] + (when if penalty.kind == Penalty.Kind.WARNING else "")


def revoke_penalty(penalty: Penalty | int, by) -> Penalty:
    """An organizer takes a penalty back (given by mistake, overturned): the standings forget it, the
    row and the log keep it. A disqualified player stays dropped (reinstate them to pair them)."""
    pk = penalty.pk if isinstance(penalty, Penalty) else penalty
    with transaction.atomic():
        event_id = Penalty.objects.filter(pk=pk).values_list("event_id", flat=True).first()
        if event_id is None:
            raise TournamentError("There is no such penalty.", "not_found")
        event = _lock(event_id)
        require_manager(by, event)
        penalty = Penalty.objects.select_related("entrant").get(pk=pk)
        if not penalty.in_force:
            raise Conflict("This penalty was revoked already.")
        penalty.revoked_at, penalty.revoked_by = timezone.now(), by
        penalty.save(update_fields=["revoked_at", "revoked_by"])
        name = penalty.entrant.name
        still = ""
        if penalty.kind == Penalty.Kind.DISQUALIFICATION and penalty.entrant.dropped:
            still = f"; {name} stays dropped (reinstate them to pair them again)"
        _changed(
            event, by, "penalty_revoked", f"Revoked the penalty of {name}: {_describe(penalty)}{still}.",
            penalty=penalty.pk, entrant=penalty.entrant_id,
        )  # fmt: skip
    return penalty


def penalties_of(event: Event) -> list[Penalty]:
    """Every penalty of the event (revoked ones too), the newest first."""
    return list(
        Penalty.objects.filter(event=event)
        .select_related("entrant", "given_by")
        .order_by("-created_at", "-pk")
    )
