"""A list of players (CSV: name, e-mail, optional club; tournaments.roster) added in one go by an
organizer: a preview first, every line with what will happen to it or its error, then the import.

Both run the very sign-up an organizer's "Add" runs (``register``: its name rules, look-alike
names, the player cap and its waitlist) one line at a time, inside one transaction; the preview
always rolls it back, the import keeps it only when no line has an error. So what the preview
says is what the import does, and a list with one bad line adds nobody.

Part of ``tournaments.services`` (see its docstring); import from there."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction

from tournaments import roster

from ..models import Entrant, Event
from .changes import Conflict, Invalid, TournamentError, _changed, _lock, require_manager
from .entrants import register


@dataclass(frozen=True)
class ImportLine:
    line: int
    name: str
    email: str
    club: str
    error: str = ""
    wait_rank: int | None = None  # where the player lands on the waitlist (a full event)


@dataclass(frozen=True)
class ImportResult:
    lines: tuple[ImportLine, ...]
    saved: bool  # False for a preview, and for a list with errors (nothing was added)

    @property
    def errors(self) -> int:
        return sum(1 for line in self.lines if line.error)

    @property
    def added(self) -> int:
        return sum(1 for line in self.lines if not line.error)

    @property
    def waiting(self) -> int:
        return sum(1 for line in self.lines if not line.error and line.wait_rank is not None)


def preview_import(event: Event, text, by, check_in: bool = False) -> ImportResult:
    """What importing `text` would do, line by line; nothing is saved."""
    return _run(event, text, by, check_in, keep=False)


def import_players(event: Event, text, by, check_in: bool = False) -> ImportResult:
    """Add every player of `text` (checked in at once if `check_in`), or nobody: with any error the
    result lists the lines and `saved` is False."""
    return _run(event, text, by, check_in, keep=True)


def _run(event: Event, text, by, check_in: bool, keep: bool) -> ImportResult:
    try:
        rows = roster.parse_roster(text)
    except roster.RosterError as exc:
        raise Invalid(str(exc)) from None
    if not rows:
        raise Invalid("The list is empty: one player a line, as name, e-mail, club.")
    lines: list[ImportLine] = []
    with transaction.atomic():
        event = _lock(event)
        require_manager(by, event)
        if event.is_finished:
            raise Conflict("This event is over.")
        first_line: dict[str, int] = {}  # a name as typed, folded: the line that added it
        added: list[Entrant] = []
        for row in rows:
            if row.error:
                lines.append(ImportLine(row.line, row.name, row.email, row.club, row.error))
                continue
            try:
                # `register` runs in a savepoint of its own: a refused line leaves nothing behind.
                entrant = register(event, row.name, by=by, checked_in=check_in)
            except TournamentError as exc:
                earlier = first_line.get(row.name.casefold())
                error = f"The same name as line {earlier}." if earlier else exc.message
                lines.append(ImportLine(row.line, row.name, row.email, row.club, error))
                continue
            first_line.setdefault(entrant.name.casefold(), row.line)
            entrant.email, entrant.club = row.email, row.club
            added.append(entrant)
            lines.append(ImportLine(row.line, entrant.name, row.email, row.club, "", entrant.wait_rank))
        result = ImportResult(tuple(lines), saved=keep and not any(line.error for line in lines))
        if not result.saved:
            transaction.set_rollback(True)  # the preview, or a list with errors: nobody is added
        else:
            Entrant.objects.bulk_update(added, ["email", "club"], batch_size=500)
            waiting = f", {result.waiting} of them on the waitlist" if result.waiting else ""
            players = f"{result.added} player{'s' * (result.added != 1)}"
            _changed(
                event, by, "import", f"Added {players} from a list{waiting}.",
                added=result.added, waiting=result.waiting,
            )  # fmt: skip
    return result
