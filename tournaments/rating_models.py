"""The stored ratings (tournaments.ratings computes them; services/rating_store.py keeps them).

Derived data, like a cache that is never out of date: every row can be computed again from the
confirmed results, and `manage.py rerate --check` does that and compares. Rounds are rated in the
order (event date, event, round number): a correction, a deleted event or an event whose date
changed re-rates from the earliest round it touches on.

Imported by tournaments.models, so Django and the migrations see these models there.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class RatingState(models.Model):
    """One row: the lock every re-rating holds, and the model the stored ratings were made with."""

    model = models.CharField(max_length=200, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"ratings made with {self.model or 'nothing yet'}"


class RatedEvent(models.Model):
    """The event's version when its rounds were last compared with the stored ratings: an event
    whose version moved on (any change) is compared again before ratings are read."""

    event = models.OneToOneField(
        "tournaments.Event", on_delete=models.CASCADE, primary_key=True, related_name="rating_mark"
    )
    version = models.PositiveIntegerField()

    def __str__(self) -> str:
        return f"ratings of event {self.event_id} at version {self.version}"


class RatedRound(models.Model):
    """A finished round as it was rated: where it stood in the order, and a fingerprint of the
    results it was rated from (players and places). The round may be gone (its event deleted): the
    row then says where to re-rate from."""

    round = models.OneToOneField(
        "tournaments.Round", null=True, on_delete=models.SET_NULL, related_name="rating"
    )
    event_date = models.DateField()
    event_ref = models.PositiveIntegerField()  # the event's pk (kept when the event is deleted)
    number = models.PositiveSmallIntegerField()
    fingerprint = models.CharField(max_length=64)

    class Meta:
        indexes = [models.Index(fields=["event_date", "event_ref", "number"], name="tournaments_rated_order")]

    def __str__(self) -> str:
        return f"rated round {self.number} of event {self.event_ref}"


class RatingChange(models.Model):
    """What one rated table did to one player's rating: before and after (OpenSkill's mu, sigma)."""

    seat = models.OneToOneField("tournaments.Seat", on_delete=models.CASCADE, related_name="rating_change")
    round = models.ForeignKey("tournaments.Round", on_delete=models.CASCADE, related_name="+")
    event = models.ForeignKey("tournaments.Event", on_delete=models.CASCADE, related_name="+")
    event_date = models.DateField()
    round_number = models.PositiveSmallIntegerField()
    # The player: an account (rated across events), else the entrant (a guest, rated in one event).
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    entrant = models.ForeignKey(
        "tournaments.Entrant", on_delete=models.CASCADE, related_name="rating_changes"
    )
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu = models.FloatField()
    sigma = models.FloatField()

    class Meta:
        indexes = [
            models.Index(
                fields=["user", "event_date", "event", "round_number"], name="tournaments_rating_user"
            ),
            models.Index(fields=["event_date", "event", "round_number"], name="tournaments_rating_order"),
        ]

    def __str__(self) -> str:
        return f"rating change of seat {self.seat_id}"

    @property
    def rating_before(self) -> float:
        return self.mu_before - 3 * self.sigma_before

    @property
    def rating(self) -> float:
        return self.mu - 3 * self.sigma


class PlayerRating(models.Model):
    """An account's rating now: its last RatingChange, kept for lists and profiles."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="tournament_rating"
    )
    mu = models.FloatField()
    sigma = models.FloatField()
    rating = models.FloatField(db_index=True)  # mu - 3 sigma, the number shown
    games = models.PositiveIntegerField()
    events = models.PositiveIntegerField()

    def __str__(self) -> str:
        return f"rating of user {self.user_id}: {self.rating:.1f}"
