"""Live games: a game row, its seats, and the append-only log of the choices made in it.

The engine's record (config, seed, generator version, the ordered choices) is the truth: the state of
a game is rebuilt from ``Game.record_head()`` (config, seed, ``rng_version``) and its ``Choice`` rows
that were not taken back (see ``services.engine_game``). Nothing else about the engine's state is
stored, except a few denormalised fields (``version``, ``pending_seat``, ``pending_decision``,
``winner``, ``undo_seat``, the turn timer's ``deadline``) that let pages, timers and bot tasks decide
cheaply whether they have anything to do. A faction draft at the table (before the game starts) keeps
its state in ``Game.draft``; a table where each player picks their own factions says so in
``Game.player_picks``.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models

from smashup.engine import rng
from smashup.engine.game import RESOLUTION

# Short join codes: no 0/O, 1/I/L, so they can be read aloud and typed from a TV screen.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6


def new_public_id() -> str:
    return secrets.token_urlsafe(9)  # 12 URL-safe characters


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def new_seat_token() -> str:
    return secrets.token_urlsafe(18)


def new_seed() -> int:
    """A version 1 seed, as games were given before the keyed generator. Migration 0001 names it;
    no new game gets one (a player could find it from their opening hand by trying them all)."""
    return secrets.randbelow(2**31)


def new_secret_seed() -> str:
    """The secret of a new game's keyed generator (smashup/engine/rng.py): 256 bits from the OS."""
    return secrets.token_hex(rng.SECRET_BYTES)


class Game(models.Model):
    class Status(models.TextChoices):
        LOBBY = "lobby", "Waiting for players"
        ACTIVE = "active", "Playing"
        FINISHED = "finished", "Finished"

    class Mode(models.TextChoices):
        STANDARD = "standard", "Standard"
        BIGBASE = "bigbase", "Big Base"

    public_id = models.CharField(max_length=24, unique=True, default=new_public_id, editable=False)
    code = models.CharField(max_length=CODE_LENGTH, unique=True, default=new_code)
    mode = models.CharField(max_length=16, choices=Mode.choices, default=Mode.STANDARD)
    # The engine config (normalised by the engine); player names are filled in when the game starts.
    config = models.JSONField()
    # The game's randomness (smashup/engine/rng.py). Version 2: `secret_seed`, the key of the keyed
    # generator (256 bits in hex), never shown while the game runs (only the replay page of a finished
    # game shows it). Version 1, games stored before it: `seed`, an int for random.Random.
    rng_version = models.PositiveSmallIntegerField(default=rng.CURRENT)
    # How the engine orders reactions (engine Game.resolution): games stored before the rules'
    # batches replay one event at a time (1), as they were played; new games use the current one.
    resolution = models.PositiveSmallIntegerField(default=RESOLUTION)
    secret_seed = models.CharField(max_length=128, blank=True, default=new_secret_seed, editable=False)
    seed = models.BigIntegerField(null=True, blank=True, default=None)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.LOBBY, db_index=True)
    # Number of choices applied so far; the next choice gets this as its `seq`.
    version = models.PositiveIntegerField(default=0)
    pending_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    pending_decision = models.CharField(max_length=32, blank=True)
    state_hash = models.CharField(max_length=64, blank=True)  # engine digest at `version`
    winner = models.PositiveSmallIntegerField(null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="play_games"
    )
    # Who set the table up in the lobby, for the limits on live tables (`quotas`): the address as the
    # limits read it (smashup.core.limits.request_address) and a digest of the browser session's key
    # (never the key: it would let anyone who reads the row act as that browser). Blank for tables
    # set up otherwise (a tournament's) and for tables older than issue 28.
    created_address = models.CharField(max_length=64, blank=True, default="", db_index=True)
    created_session = models.CharField(max_length=64, blank=True, default="", db_index=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # Ended by a staff member before its end (`stopping.end_game`, the admin's action): when and by
    # whom. The game is finished without a winner; its record stops where it was.
    stopped_at = models.DateTimeField(null=True, blank=True)
    stopped_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # Turn timers: seconds per decision (None: no timer), and when the decision open at version
    # `deadline_seq` times out (None: no person's decision is timed now). See `timers`.
    turn_seconds = models.PositiveIntegerField(null=True, blank=True)
    deadline = models.DateTimeField(null=True, blank=True)
    deadline_seq = models.PositiveIntegerField(null=True, blank=True)
    # Undo: how many choices were taken back so far (a live page that sees it change redraws all),
    # and the seat that may take back the last choice of the record now (None: nobody).
    undos = models.PositiveIntegerField(default=0)
    undo_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    # A Kickin' It Queensberry draft at the table: `tournaments.draft.DraftState.to_dict()` (players are
    # seat indexes); None when the factions were picked per seat or drawn at random.
    draft = models.JSONField(null=True, blank=True)
    # "Each player picks": a person picks their own two factions when they take a seat (and may
    # change them until the game starts); bot seats get random ones when it starts.
    player_picks = models.BooleanField(default=False)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"game {self.public_id} ({self.code}, {self.status}, v{self.version})"

    @property
    def engine_seed(self) -> int | str:
        """The seed the engine takes: the secret (version 2) or the old int (version 1)."""
        return self.seed if self.rng_version == rng.LEGACY else self.secret_seed

    def record_head(self) -> dict:
        """The engine record without its choices: config, seed, (from version 2) "rng" and (from
        version 2) "resolution"."""
        head = {"config": self.config, "seed": self.engine_seed}
        if self.rng_version != rng.LEGACY:
            head["rng"] = self.rng_version
        if self.resolution != 1:  # a record without "resolution" is version 1 (engine setup.replay)
            head["resolution"] = self.resolution
        return head

    @property
    def group_name(self) -> str:
        """The channel-layer group of this game: only public "changed" pings go there."""
        return f"play.game.{self.pk}"

    @property
    def is_big_base(self) -> bool:
        return self.mode == self.Mode.BIGBASE

    @property
    def is_lobby(self) -> bool:
        return self.status == self.Status.LOBBY

    @property
    def is_active(self) -> bool:
        return self.status == self.Status.ACTIVE

    @property
    def is_finished(self) -> bool:
        return self.status == self.Status.FINISHED


class Seat(models.Model):
    class Kind(models.TextChoices):
        PERSON = "person", "Person"
        BOT = "bot", "Bot"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.PERSON)
    bot = models.CharField(max_length=16, blank=True)  # "heuristic" / "random" for bot seats
    factions = models.JSONField(default=list)  # the two factions (random ones already drawn)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="play_seats"
    )
    guest_name = models.CharField(max_length=40, blank=True)
    # The secret behind this seat's signed links; a new token revokes every link given out before.
    # It changes when someone takes the seat, so the link that offered the seat (which its table's
    # creator or a tournament's organizers saw) stops working; the taker's own session holds the new
    # one, and so does their personal resume link (`services.resume_link_token`).
    token = models.CharField(max_length=40, default=new_seat_token, editable=False)
    claimed = models.BooleanField(default=False)
    claimed_at = models.DateTimeField(null=True, blank=True)
    # Someone took this seat: an account, a claim (lobby, table page, seat link), or the first to
    # confirm the seat link of a seat reserved for a named guest (a tournament table). Its seat link
    # then seats nobody. A reserved guest seat is `claimed` (the game can start) but not yet `taken`.
    taken = models.BooleanField(default=False)

    class Meta:
        ordering = ["game", "index"]
        constraints = [models.UniqueConstraint(fields=["game", "index"], name="play_seat_unique_index")]

    def __str__(self) -> str:
        return f"seat {self.index} of {self.game_id}: {self.display_name}"

    @property
    def is_bot(self) -> bool:
        return self.kind == self.Kind.BOT

    @property
    def filled(self) -> bool:
        return self.is_bot or self.claimed

    @property
    def display_name(self) -> str:
        if self.is_bot:
            return f"Bot {self.index + 1}"
        if self.user_id is not None:
            return self.user.get_username()
        if self.guest_name:
            return self.guest_name
        return f"Seat {self.index + 1}"


class ChoiceQuerySet(models.QuerySet):
    def in_record(self):
        """The choices of the engine record: every row that was not taken back."""
        return self.filter(undone_at__isnull=True)


class Choice(models.Model):
    """One applied choice. Append-only: rows are created, never changed (save refuses updates), with
    one exception: an undo marks the last choice of the record as taken back (``undone_at``, set
    once, by a queryset update in ``services.undo_choice``). The row stays for the audit; the engine
    record is the rows with ``undone_at`` NULL, in ``seq`` order, and ``seq`` is unique among them.
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="choices")
    seq = models.PositiveIntegerField()  # 0-based position in the record (= game version before it)
    # NULL for an entry nobody at the table made: "time is called" (decision ``CALL_TIME``, see
    # ``services.call_time``), the engine record's ``[None, "call_time", []]``.
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    decision = models.CharField(max_length=32)
    options = models.JSONField(default=list)
    state_hash = models.CharField(max_length=64)  # engine digest after this choice
    by_bot = models.BooleanField(default=False)  # made by the server's bot (a bot seat, or a timeout)
    timed_out = models.BooleanField(default=False)  # the bot chose because the seat ran out of time
    # How many log lines the game had before this choice (where the log says "ran out of time" or
    # "took back"), and the turn timer's deadline the choice was made under.
    log_at = models.PositiveIntegerField(null=True, blank=True)
    deadline = models.DateTimeField(null=True, blank=True)
    # Whether its seat may take it back while it is the last choice (computed when it was applied:
    # nothing hidden became known to anyone and no shuffle or random draw happened), and if not, why.
    undoable = models.BooleanField(default=False)
    undo_block = models.CharField(max_length=120, blank=True)
    undone_at = models.DateTimeField(null=True, blank=True)  # taken back (no longer in the record)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = ChoiceQuerySet.as_manager()

    class Meta:
        ordering = ["game", "seq"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "seq"],
                condition=models.Q(undone_at__isnull=True),
                name="play_choice_unique_seq_in_record",
            )
        ]

    def __str__(self) -> str:
        return f"choice {self.seq} of {self.game_id}: seat {self.seat} {self.decision} {self.options}"

    def save(self, *args, **kwargs):
        if not self._state.adding:
            raise ValueError("choices are append-only; a stored choice is never changed")
        super().save(*args, **kwargs)

    def as_record(self) -> list:
        return [self.seat, self.decision, list(self.options)]

    @property
    def is_time_call(self) -> bool:
        return self.seat is None
