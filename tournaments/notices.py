"""What a player's page tells them as it happens: their table is paired, their draft pick is up,
the clock runs low, time is called, a result waits for their confirmation, a place opened for them.

A pure function of what the page shows. Each notice has a key that names the moment (the round, the
table and the result version it is about), so the page alerts once per moment (a banner, and on a
phone the Notification API and a vibration; static/js/tournament-notices.js) however often it is
refreshed, and a new moment (a corrected result, the next round) alerts again. The same notices,
by the same keys, go once each by Web Push and e-mail to players who turned those on
(tournaments.delivery).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass


@dataclass(frozen=True)
class Notice:
    key: str
    title: str
    body: str

    def as_dict(self) -> dict:
        return asdict(self)


def _minutes(seconds: int) -> str:
    if seconds % 60:
        return f"{seconds} seconds"
    minutes = seconds // 60
    return f"{minutes} minute{'s' * (minutes != 1)}"


def player_notices(
    *,
    event_name: str,
    round_number: int | None = None,
    round_label: str = "",
    round_finished: bool = False,
    table_pk: int | None = None,
    table_number: int | None = None,
    seat: int | None = None,
    bye: bool = False,
    table_state: str = "",
    result_version: int = 0,
    reported_by: str = "",
    reported_by_me: bool = False,
    confirmed: bool = False,
    draft_turn: int | None = None,
    clock_status: str = "",
    warned: int | None = None,
    promoted: str = "",
    changes: int = 0,
) -> list[Notice]:
    """The notices of a player's page now, most urgent first. `draft_turn`: the draft's version
    when it is this player's pick (None otherwise); `warned`: the clock warning given (seconds);
    `promoted`: when a place opened for them off the waitlist (ISO time; '' never); `changes`: how
    often an organizer changed their place since the pairing (Seat.changes: a move, a swap, a
    table paired again or renumbered), so that each change is a new moment, said as one."""
    notices: list[Notice] = []
    if table_state == "reported" and not confirmed and not reported_by_me and table_pk is not None:
        notices.append(
            Notice(
                f"confirm:{table_pk}:{result_version}",
                "Confirm your result",
                f"{reported_by or 'A player'} entered the result of table {table_number}: confirm it or "
                "dispute it.",
            )
        )
    if draft_turn is not None and table_pk is not None:
        text = f"It is your turn in the draft at table {table_number}."
        notices.append(Notice(f"pick:{table_pk}:{draft_turn}", "Your pick", text))
    if round_number is not None and not round_finished:
        if clock_status == "called":
            text = f"{round_label}: finish the turn in progress; the end rule is on your page."
            notices.append(Notice(f"called:{round_number}", "Time is called", text))
        elif warned and clock_status in ("running", "paused"):
            notices.append(
                Notice(
                    f"clock:{round_number}:{warned}",
                    "Time runs low",
                    f"Less than {_minutes(warned)} left in {round_label.lower()}.",
                )
            )
        # The first pairing is "paired:<round>"; each change of place after it a moment of its own.
        key = f"paired:{round_number}" + (f":changed:{changes}" if changes else "")
        if table_number is not None:
            first = " (you go first)" if seat == 1 else ""
            if changes:
                title = f"{round_label}: now table {table_number}"
                text = (
                    f"{event_name}: an organizer changed your place: you now play at table "
                    f"{table_number}, seat {seat}{first}."
                )
            else:
                title = f"{round_label}: table {table_number}"
                text = f"{event_name}: you play at table {table_number}, seat {seat}{first}."
            notices.append(Notice(key, title, text))
        elif bye:
            if changes:
                text = f"{event_name}: an organizer changed your place: you now have a bye."
            else:
                text = f"{event_name}: you have a bye."
            notices.append(Notice(key, f"{round_label}: bye", text))
    if promoted and table_number is None and not bye:
        text = f"A place opened for you at {event_name}."
        notices.append(Notice(f"place:{promoted}", "You have a place", text))
    return notices
