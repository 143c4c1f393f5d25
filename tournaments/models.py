"""Tournaments: events, entrants, rounds, tables, seats, results, drafts, the round clock, the audit log.

The rows hold what happened; the numbers are derived. Tournament points, tie-breakers and ranks are
never stored: ``services.standings`` recomputes them with the pure ``tournaments.standings`` from the
confirmed seats' VP, so a corrected result changes everything after it consistently. Pairing
history is the tables themselves (seat order = ``Seat.position``).

A player is at most one table (or bye) per round (a constraint), drops from the next round on
(``Entrant.dropped_after``: the last round they are part of), and a late entrant either waits for
the next round or is seated into a short table of the current one; either way the rounds already
played are never rewritten.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import CASCADE, ProtectedError, Q
from django.db.models.functions import Lower

from smashup import draft as kiq
from smashup.draft import FACTIONS
from tournaments import names, penalties, scoring
from tournaments.standings import DEFAULT_TIEBREAKERS, TIEBREAKERS

# The same rule as games played in the app (smashup/engine/game.py, call_time), so cardboard and
# app tables of one event end alike.
DEFAULT_END_RULE = (
    "The player whose turn it is finishes it, and ready bases score as usual. Then the player with the "
    "most VP wins. If the lead is tied, play on: the game ends as soon as a scored base leaves a single "
    "leader, or after one more round of turns at most, when the tied leaders share first place."
)
# Averages per game played, so that a bye is neutral (tournaments.standings).
TIEBREAKER_LABELS = {
    "vp_share": "VP share (VP / table's top VP, average per game)",
    "sos": "Strength of schedule",
    "firsts": "Wins per game",
    "vp": "VP per game",
}
# The base limit, by players at the table (the tournament option of ending a game early).
BASE_LIMITS = {2: 4, 3: 5, 4: 6}
TIEBREAKER_SHORT = {"vp_share": "VP share", "sos": "SoS", "firsts": "Wins/game", "vp": "VP/game"}
assert set(TIEBREAKER_LABELS) == set(TIEBREAKERS) == set(TIEBREAKER_SHORT)


def new_token() -> str:
    return secrets.token_urlsafe(18)


def new_event_seed() -> str:
    return secrets.token_hex(6)


def default_pool() -> list[str]:
    return list(FACTIONS)


def default_tiebreakers() -> list[str]:
    return list(DEFAULT_TIEBREAKERS)


def default_warnings() -> list[int]:
    return [10]


ARCHIVE_INSTEAD = (
    "An event with results is archived, not deleted: its results and audit log stay (archive it: "
    "it leaves the lists of events)."
)


def events_with_results(event_ids) -> set[int]:
    """The events among `event_ids` that have a result: a VP entered at a table (reported,
    disputed, confirmed, or a no-show's 0)."""
    return set(
        Seat.objects.filter(round__event_id__in=list(event_ids), vp__isnull=False)
        .values_list("round__event_id", flat=True)
        .distinct()
    )


class EventQuerySet(models.QuerySet):
    def delete(self):
        """Refused when any of these events has results (ARCHIVE_INSTEAD): nothing is deleted."""
        kept = events_with_results(self.values_list("pk", flat=True))
        if kept:
            raise ProtectedError(ARCHIVE_INSTEAD, set(Event.objects.filter(pk__in=kept)))
        return super().delete()


class Event(models.Model):
    class Status(models.TextChoices):
        REGISTRATION = "registration", "Registration"
        RUNNING = "running", "Running"
        FINISHED = "finished", "Finished"

    class Mode(models.TextChoices):
        STANDARD = "standard", "Standard"
        BIGBASE = "bigbase", "Big Base"

    class Layout(models.TextChoices):
        EVEN = "even", "As even as possible (e.g. 4+3+3)"
        PREFER_SMALL = "prefer_small", "Prefer smaller tables"
        BYES = "byes", "Only full tables, byes for the rest"

    class ShortTables(models.TextChoices):
        STRICT = "strict", "Strict: a rule, even at the price of a rematch"
        SOFT = "soft", "Soft: a second short table to spare a rematch"

    class DraftMode(models.TextChoices):
        NONE = "none", "No draft: players bring their factions"
        EVENT = "event", "Draft at the round 1 tables, keep the pair all event"
        TABLE = "table", "Draft at every table, every round"

    class Scoring(models.TextChoices):
        NORMALISED = scoring.NORMALISED, "Normalised (first 4, last 1 at every table size)"
        FIXED_4321 = scoring.FIXED_4321, "4 / 3 / 2 / 1"

    name = models.CharField(max_length=120)
    date = models.DateField()
    place = models.CharField(max_length=200, blank=True)
    description = models.TextField(blank=True)
    mode = models.CharField(max_length=16, choices=Mode.choices, default=Mode.STANDARD)
    # A Big Base event's board: the slug of a board in the database (bigbase.Board). Each in-app game
    # copies the board when it starts, so a later edit of the board changes no game already played.
    board = models.CharField(max_length=40, blank=True, verbose_name="Big Base board")
    table_size = models.PositiveSmallIntegerField(
        default=4, choices=[(4, "4 players"), (3, "3 players"), (2, "2 players (1v1)")]
    )
    layout = models.CharField(max_length=16, choices=Layout.choices, default=Layout.EVEN)
    # Pairing (tournaments.pairing.PairingOptions): short-table fairness a rule or weighed against
    # rematches, and players of one club (Entrant.club) apart in round 1.
    short_tables = models.CharField(
        max_length=8,
        choices=ShortTables.choices,
        default=ShortTables.STRICT,
        verbose_name="short tables",
        help_text="Strict: nobody gets a second short table before everyone had one, even at the price "
        "of a rematch. Soft: a player may get a short table again first when that spares a rematch (a "
        "second one weighs half a rematch, a third one and a half).",
    )
    avoid_clubs = models.BooleanField(
        default=False,
        verbose_name="players of one club apart in round 1",
        help_text="The random draw of round 1 is changed by as few swaps as needed so that players of "
        "one club (from the list of players) sit at different tables where the numbers allow.",
    )
    rounds = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Swiss rounds; empty: suggested from the number of players."
    )
    round_minutes = models.PositiveSmallIntegerField(default=50)
    warning_minutes = models.JSONField(default=default_warnings, blank=True)  # e.g. [10, 5]
    end_rule = models.TextField(
        default=DEFAULT_END_RULE, help_text="Shown to the tables when time is called."
    )
    faction_pool = models.JSONField(default=default_pool)
    faction_copies = models.PositiveSmallIntegerField(default=1)
    # The rulebook's minimum pool: at least this many factions per player in the middle, bans included.
    min_factions_per_player = models.PositiveSmallIntegerField(
        default=kiq.FACTIONS_EACH, verbose_name="minimum factions per player"
    )
    draft_mode = models.CharField(max_length=8, choices=DraftMode.choices, default=DraftMode.EVENT)
    bans_per_player = models.PositiveSmallIntegerField(default=0)
    pick_seconds = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Pick timer in seconds; empty: no timer."
    )
    scoring = models.CharField(max_length=16, choices=Scoring.choices, default=Scoring.NORMALISED)
    tiebreakers = models.JSONField(default=default_tiebreakers)
    top_cut = models.PositiveSmallIntegerField(
        default=0,
        choices=[
            (0, "No top cut"),
            (3, "Top 3 (tables of 3: one final table)"),
            (4, "Top 4 (one final table; at 1v1, two semifinals and a final)"),
            (8, "Top 8 (two semifinals, the first two of each to the final table; at 1v1, a bracket)"),
            (9, "Top 9 (tables of 3: three semifinals, then a final table)"),
            (16, "Top 16 (semifinals, then a final table; at 1v1, a bracket from a round of 16)"),
        ],
    )
    # The tournament end option: a game ends after a number of scored bases (BASE_LIMITS). Games in
    # the app apply it themselves (tournaments.in_app); the pages show it to cardboard tables. Off:
    # games end at 15 VP or when time is called. (The name predates cardboard tables following it.)
    in_app_base_limit = models.BooleanField(
        default=False,
        verbose_name="base limit",
        help_text="Every game ends after 4 scored bases at 2 players, 5 at 3, 6 at 4; most VP wins.",
    )
    require_check_in = models.BooleanField(default=True)
    registration_open = models.BooleanField(default=True)
    # At most this many players hold a place (not dropped, not waiting); sign-ups beyond it wait in
    # order (Entrant.wait_rank). Empty: no cap.
    player_cap = models.PositiveIntegerField(
        null=True,
        blank=True,
        verbose_name="player cap",
        help_text="Players beyond it join a waitlist in sign-up order. Empty: no cap.",
    )
    # Self check-in at the venue (tournaments.checkin): the QR code the organizer shows carries this
    # secret; it works only while self check-in is open, and rotating it voids every code shown so far.
    self_check_in_open = models.BooleanField(default=False, verbose_name="self check-in open")
    check_in_secret = models.CharField(max_length=32, default=new_token, editable=False)
    seed = models.CharField(max_length=32, default=new_event_seed)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.REGISTRATION)
    version = models.PositiveIntegerField(default=0)  # bumped by every change: live pages compare it
    organizer = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="organized_events"
    )
    co_organizers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="co_organized_events"
    )
    # Archived: out of the lists of events, everything kept (an event with results is never deleted;
    # services.archive_event). Its pages still open by their address.
    archived_at = models.DateTimeField(null=True, blank=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = EventQuerySet.as_manager()

    class Meta:
        ordering = ["-date", "-pk"]

    def __str__(self) -> str:
        return f"{self.name} ({self.date})"

    def delete(self, *args, **kwargs):
        """Refused for an event with results (ARCHIVE_INSTEAD). One without (set up by mistake, a
        test) goes with its players, rounds and audit log."""
        if self.pk is not None and events_with_results([self.pk]):
            raise ProtectedError(ARCHIVE_INSTEAD, {self})
        return super().delete(*args, **kwargs)

    @property
    def is_archived(self) -> bool:
        return self.archived_at is not None

    def has_results(self) -> bool:
        return bool(self.pk is not None and events_with_results([self.pk]))

    @property
    def group_name(self) -> str:
        return f"tournaments.event.{self.pk}"

    @property
    def is_finished(self) -> bool:
        return self.status == self.Status.FINISHED

    @property
    def board_name(self) -> str:
        """The name of a Big Base event's board ('' for a standard event; the slug if it is gone)."""
        if self.mode != self.Mode.BIGBASE:
            return ""
        from bigbase.models import Board

        return Board.objects.filter(slug=self.board).values_list("name", flat=True).first() or self.board

    @property
    def base_limit_rule(self) -> str:
        """The base limit in words for the pages ('' when the event does not use it)."""
        if not self.in_app_base_limit:
            return ""
        counts = ", ".join(
            f"{BASE_LIMITS[n]} at {n} players" if i == 0 else f"{BASE_LIMITS[n]} at {n}"
            for i, n in enumerate(sorted(BASE_LIMITS))
        )
        return (
            f"A game ends after a number of scored bases: {counts}. The turn in which that base scores "
            "is played out, then the player with the most VP wins (a tied lead plays on, as when time "
            "is called)."
        )

    @property
    def warnings_seconds(self) -> list[int]:
        return sorted({int(m) * 60 for m in self.warning_minutes or [] if int(m) > 0}, reverse=True)


class EntrantQuerySet(models.QuerySet):
    def bulk_create(self, objs, *args, **kwargs):
        objs = list(objs)
        for entrant in objs:
            entrant.name_key = names.name_key(entrant.name)
        return super().bulk_create(objs, *args, **kwargs)


class Entrant(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="entrants")
    name = models.CharField(max_length=40)
    # The name as names are compared (tournaments.names.name_key: case-folded, look-alike letters as
    # one), kept by save(): one entrant per key and event, so "Ada" and "Аda" (Cyrillic А) are one.
    name_key = models.TextField(editable=False, default="")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="entries"
    )
    # The secret of the player's private link (their page, results, draft picks).
    token = models.CharField(max_length=32, unique=True, default=new_token, editable=False)
    checked_in = models.BooleanField(default=False)
    checked_in_at = models.DateTimeField(null=True, blank=True)
    dropped = models.BooleanField(default=False)
    # The last round the player is part of (0: dropped before the first); paired no more after it.
    dropped_after = models.PositiveSmallIntegerField(null=True, blank=True)
    # Registered after round 1 was paired: the round they joined (informational).
    late_round = models.PositiveSmallIntegerField(null=True, blank=True)
    factions = models.JSONField(default=list, blank=True)  # the pair kept all event (event draft / own)
    # On the waitlist of a capped event: its place in line (1 = next in); None once they have a place.
    wait_rank = models.PositiveIntegerField(null=True, blank=True)
    # When a place opened for them after waiting (their page says so until the event starts).
    promoted_at = models.DateTimeField(null=True, blank=True)
    # From the organizer's list of players (services.importing); only organizers see them.
    email = models.EmailField(blank=True)
    club = models.CharField(max_length=60, blank=True)
    # An accessible seat: the table this player keeps every round; pairing gives their table this
    # number (services.manual, tournaments.moves.number_tables). None: wherever they are paired.
    fixed_table = models.PositiveSmallIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = EntrantQuerySet.as_manager()

    class Meta:
        ordering = ["event", Lower("name")]
        constraints = [
            models.UniqueConstraint(fields=["event", "name_key"], name="tournaments_entrant_unique_name_key"),
            models.UniqueConstraint(
                fields=["event", "user"],
                condition=Q(user__isnull=False),
                name="tournaments_entrant_unique_user",
            ),
            models.UniqueConstraint(
                fields=["event", "fixed_table"],
                condition=Q(fixed_table__isnull=False),
                name="tournaments_entrant_one_player_per_fixed_table",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs):
        self.name_key = names.name_key(self.name)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "name" in update_fields:
            kwargs["update_fields"] = {*update_fields, "name_key"}
        super().save(*args, **kwargs)

    @property
    def waiting(self) -> bool:
        return self.wait_rank is not None

    @property
    def status(self) -> str:
        if self.dropped:
            return "dropped"
        if self.waiting:
            return "waitlist"
        return "checked in" if self.checked_in else "registered"


class Round(models.Model):
    class Stage(models.TextChoices):
        SWISS = "swiss", "Swiss"
        EIGHTHFINAL = "eighthfinal", "Round of 16"  # a 1v1 top 16 (tournaments.topcut)
        QUARTERFINAL = "quarterfinal", "Quarterfinal"  # a 1v1 top 8 or 16
        SEMIFINAL = "semifinal", "Semifinal"
        FINAL = "final", "Final"

    class Status(models.TextChoices):
        PAIRED = "paired", "Paired"
        PLAYING = "playing", "Playing"
        FINISHED = "finished", "Finished"

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="rounds_set")
    number = models.PositiveSmallIntegerField()  # 1.. across the whole event, top cut included
    stage = models.CharField(max_length=12, choices=Stage.choices, default=Stage.SWISS)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.PAIRED)
    method = models.CharField(max_length=16, blank=True)  # how it was paired: random, exact, local, ...
    summary = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["event", "number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="tournaments_round_unique_number")
        ]

    def __str__(self) -> str:
        return f"{self.label} of {self.event_id}"

    @property
    def label(self) -> str:
        if self.stage == self.Stage.SWISS:
            return f"Round {self.number}"
        return self.get_stage_display()

    @property
    def is_finished(self) -> bool:
        return self.status == self.Status.FINISHED


class Table(models.Model):
    class State(models.TextChoices):
        OPEN = "open", "Playing"
        REPORTED = "reported", "Reported"
        DISPUTED = "disputed", "Disputed"
        CONFIRMED = "confirmed", "Confirmed"

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    state = models.CharField(max_length=12, choices=State.choices, default=State.OPEN)
    # Bumped whenever the reported VP change, so a confirmation always confirms what the player saw.
    result_version = models.PositiveIntegerField(default=0)
    reported_by = models.ForeignKey(
        "Entrant", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    reported_at = models.DateTimeField(null=True, blank=True)
    dispute_note = models.TextField(blank=True)
    decided_by = models.ForeignKey(  # the organizer who entered or corrected the result
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    confirmed_at = models.DateTimeField(null=True, blank=True)
    # The pairing's explanation of this table: cost, repeats, spread, fairness, first seat.
    report = models.JSONField(default=dict, blank=True)
    game = models.ForeignKey(  # the in-app game played at this table (tournaments.in_app)
        "play.Game", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="tournaments_table_unique_number")
        ]

    def __str__(self) -> str:
        return f"table {self.number} of round {self.round_id}"

    @property
    def is_confirmed(self) -> bool:
        return self.state == self.State.CONFIRMED


class Seat(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="+")  # = table.round
    # RESTRICT: a player with games cannot be deleted alone, but deleting the event deletes all.
    entrant = models.ForeignKey(Entrant, on_delete=models.RESTRICT, related_name="seats")
    position = models.PositiveSmallIntegerField()  # 0 = first seat (first player, first pick)
    vp = models.PositiveSmallIntegerField(null=True, blank=True)
    factions = models.JSONField(default=list, blank=True)
    confirmed = models.BooleanField(default=False)  # this player agrees with the reported VP
    # Marked by an organizer: the player did not come to the table. Their VP are 0 and they place
    # below everyone present (a loss); the others complete the result (services.mark_no_show).
    no_show = models.BooleanField(default=False)
    # How often an organizer changed this player's place (table, its number or the seat) after the
    # pairing: a move, a swap, a table paired again or renumbered. Their notice of the table names
    # the change, so it goes again (tournaments.notices: the key counts it).
    changes = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["table", "position"]
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="tournaments_seat_unique_position"),
            models.UniqueConstraint(fields=["round", "entrant"], name="tournaments_seat_once_per_round"),
        ]

    def __str__(self) -> str:
        return f"{self.entrant_id} at {self.table_id} seat {self.position}"


class Bye(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="byes")
    entrant = models.ForeignKey(Entrant, on_delete=models.RESTRICT, related_name="byes")
    changes = models.PositiveSmallIntegerField(default=0)  # as Seat.changes (a swap gave the bye)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["round", "entrant"], name="tournaments_bye_once_per_round")
        ]

    def __str__(self) -> str:
        return f"bye for {self.entrant_id} in round {self.round_id}"


class RoundClock(models.Model):
    """The round clock: a row with a deadline. Every change bumps `version`; a Celery task carries
    the version it was scheduled for and does nothing once the clock has moved on (see clock.py)."""

    class Status(models.TextChoices):
        READY = "ready", "Not started"
        RUNNING = "running", "Running"
        PAUSED = "paused", "Paused"
        CALLED = "called", "Time is called"

    round = models.OneToOneField(Round, on_delete=models.CASCADE, related_name="clock")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.READY)
    duration = models.PositiveIntegerField()  # seconds planned (extensions included)
    remaining = models.FloatField()  # seconds left while ready or paused
    deadline = models.DateTimeField(null=True, blank=True)  # while running
    warnings = models.JSONField(default=list)  # seconds before the end, e.g. [600]
    fired = models.JSONField(default=list)  # the warnings already given
    version = models.PositiveIntegerField(default=0)
    # Judge calls: extra seconds for single tables, {"<table pk>": seconds} beyond the round's
    # deadline, and the tables whose extra time has run out (or was called by the organizer).
    # Kept on the clock row so that `due` needs no query (clock.py).
    extensions = models.JSONField(default=dict, blank=True)
    extensions_called = models.JSONField(default=list, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    called_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"clock of round {self.round_id}: {self.status} v{self.version}"


class JudgeCall(models.Model):
    """A player asks for a judge, from their page or their table's draft (services.judging); the
    organizers see it on the dashboard with the table, and mark it handled."""

    class Status(models.TextChoices):
        OPEN = "open", "Waiting for a judge"
        HANDLED = "handled", "Handled"
        WITHDRAWN = "withdrawn", "Withdrawn"

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="judge_calls")
    entrant = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="judge_calls")
    # The caller's table in the round of the call, if they had one (kept if the round is taken back).
    table = models.ForeignKey(Table, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    table_number = models.PositiveSmallIntegerField(null=True, blank=True)
    round_label = models.CharField(max_length=40, blank=True)
    note = models.CharField(max_length=200, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    created_at = models.DateTimeField(auto_now_add=True)
    closed_at = models.DateTimeField(null=True, blank=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["created_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["entrant"], condition=Q(status="open"), name="tournaments_one_open_judge_call"
            )
        ]

    def __str__(self) -> str:
        return f"judge call of {self.entrant_id}: {self.status}"

    @property
    def is_open(self) -> bool:
        return self.status == self.Status.OPEN


class Penalty(models.Model):
    """A penalty a judge gave (tournaments.penalties says what each kind does to the standings).
    Revoking one keeps the row (and the audit log says who and when)."""

    class Kind(models.TextChoices):
        WARNING = "warning", "Warning"
        VP_LOSS = "vp_loss", "VP loss"
        GAME_LOSS = "game_loss", "Game loss"
        DISQUALIFICATION = "disqualification", "Disqualification"

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="penalties")
    entrant = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="penalties")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    # The round of the game a VP or game loss touches (a number: a round taken back keeps it).
    round_number = models.PositiveSmallIntegerField(null=True, blank=True)
    vp = models.PositiveSmallIntegerField(default=0)  # VP lost
    note = models.CharField(max_length=200, blank=True)  # why: organizers and the player see it
    created_at = models.DateTimeField(auto_now_add=True)
    given_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    revoked_at = models.DateTimeField(null=True, blank=True)
    revoked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["created_at", "pk"]
        verbose_name_plural = "penalties"

    def __str__(self) -> str:
        return f"{self.get_kind_display()} for {self.entrant_id}"

    @property
    def in_force(self) -> bool:
        return self.revoked_at is None

    @classmethod
    def standings_values(cls, event_pk: int) -> models.QuerySet:
        """The event's penalties in force as values of `penalties.Penalty` (player, kind, round, VP)."""
        rows = cls.objects.filter(event_id=event_pk, revoked_at__isnull=True)
        return rows.values_list("entrant_id", "kind", "round_number", "vp")

    @classmethod
    def standings_inputs(cls, event: Event, before_round: int | None = None) -> list[penalties.Penalty]:
        """The event's penalties in force as the pure standings take them (before `before_round`,
        as a pairing saw them)."""
        rows = cls.standings_values(event.pk)
        if before_round is not None:
            rows = rows.exclude(round_number__gte=before_round)
        return [penalties.Penalty(*values) for values in rows]


class Draft(models.Model):
    """A live Kickin' It Queensberry draft at one table (tournaments.draft's state, as JSON)."""

    class Status(models.TextChoices):
        OPEN = "open", "Drafting"
        DONE = "done", "Done"

    table = models.OneToOneField(Table, on_delete=models.CASCADE, related_name="draft")
    state = models.JSONField()
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.OPEN)
    version = models.PositiveIntegerField(default=0)  # number of choices made
    pick_seconds = models.PositiveSmallIntegerField(null=True, blank=True)
    deadline = models.DateTimeField(null=True, blank=True)  # of the current pick, with a timer
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"draft of table {self.table_id}: {self.status} v{self.version}"


APPEND_ONLY = "the audit log is append-only: entries are never changed or deleted"


def cascade_unless_results(collector, field, sub_objs, using):
    """`on_delete` of an audit entry's event: the log goes with an event that has no results (one set
    up by mistake); for an event with results the deletion is refused (ARCHIVE_INSTEAD), however it
    was asked for (a queryset, the admin's bulk action), so its log is never lost."""
    kept = events_with_results({entry.event_id for entry in sub_objs})
    if kept:
        raise ProtectedError(ARCHIVE_INSTEAD, set(Event.objects.filter(pk__in=kept)))
    CASCADE(collector, field, sub_objs, using)


class AppendOnlyQuerySet(models.QuerySet):
    """`update()` and `delete()` refused: audit entries are written once (AuditEntry)."""

    def update(self, **kwargs):
        raise ValueError(APPEND_ONLY)

    def delete(self):
        raise ValueError(APPEND_ONLY)


class AuditEntry(models.Model):
    """Every change an organizer (or a player, or the clock) made to an event, append-only: saving
    an existing entry, `delete()` and the queryset's `update()`/`delete()` are refused, and the admin
    only shows them. The one way an entry goes is with an event that has no results
    (`cascade_unless_results`)."""

    event = models.ForeignKey(Event, on_delete=cascade_unless_results, related_name="audit")
    at = models.DateTimeField(auto_now_add=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    actor = models.CharField(max_length=80)  # who, as shown: a user name, "Ada (player)", "clock"
    action = models.CharField(max_length=32)
    message = models.TextField()
    data = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["-at", "-pk"]
        verbose_name_plural = "audit entries"

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M:%S} {self.actor}: {self.message}"

    objects = AppendOnlyQuerySet.as_manager()

    def save(self, *args, **kwargs):
        if not self._state.adding:
            raise ValueError(APPEND_ONLY)
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise ValueError(APPEND_ONLY)


class PushSubscription(models.Model):
    """A browser's Web Push subscription for one player (tournaments.push): where their notices go
    when the page is closed or the phone locked. The endpoint is a push service's address (one of
    ``WEB_PUSH_SERVICES``); `p256dh` and `auth` are the browser's keys that the messages are encrypted
    to (RFC 8291). Deleted when the push service answers that it is gone (404, 410)."""

    entrant = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="push_subscriptions")
    endpoint = models.CharField(max_length=2000)
    p256dh = models.CharField(max_length=100)  # base64url, 65 bytes: an uncompressed P-256 point
    auth = models.CharField(max_length=40)  # base64url, 16 bytes
    created_at = models.DateTimeField(auto_now_add=True)
    last_sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["entrant", "created_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["entrant", "endpoint"], name="tournaments_push_unique_endpoint")
        ]

    def __str__(self) -> str:
        return f"push subscription {self.pk} of {self.entrant_id}"


class NoticeEmail(models.Model):
    """The e-mail address a player gave for their notices (tournaments.mailing). Mails go out only once
    it is confirmed: at once for the address of the player's own account, else by the link mailed to
    it. The player stops them on their page or by the signed link in every mail (the row goes)."""

    entrant = models.OneToOneField(Entrant, on_delete=models.CASCADE, related_name="notice_email")
    address = models.EmailField(max_length=254)
    # The site as the player used it (scheme and host of their request): the links in the mails.
    origin = models.CharField(max_length=200)
    confirmed_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"notice e-mail of {self.entrant_id}{'' if self.confirmed_at else ' (unconfirmed)'}"


class NoticeSent(models.Model):
    """A notice (tournaments.notices, its key naming the moment) that went to a player's phone and
    e-mail, or that they had seen on their page when they turned these on: each goes once."""

    entrant = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=100)
    at = models.DateTimeField(auto_now_add=True)
    # The delivery run that wrote the row (tournaments.delivery): a run sends what it wrote, so two
    # runs at once claim every moment in one statement each and never send one twice.
    claim = models.CharField(max_length=32, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["entrant", "key"], name="tournaments_notice_sent_once")
        ]

    def __str__(self) -> str:
        return f"{self.key} to {self.entrant_id}"

# Ratings and series live in modules of their own; imported here so Django registers them.
from .rating_models import PlayerRating, RatedEvent, RatedRound, RatingChange, RatingState  # noqa: E402, F401
from .series_models import Series  # noqa: E402, F401
