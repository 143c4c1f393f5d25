"""Series (leagues): organizers group events and give points per final placing
(tournaments.series computes the standings; services/leagues.py reads the events).

Imported by tournaments.models, so Django and the migrations see this model there.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


def default_placings() -> list[float]:
    return [10, 8, 6, 5, 4, 3, 2, 1]


class Series(models.Model):
    name = models.CharField(max_length=120)
    description = models.TextField(blank=True)
    organizer = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="organized_series"
    )
    co_organizers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="co_organized_series"
    )
    events = models.ManyToManyField("tournaments.Event", blank=True, related_name="series")
    # Points for 1st, 2nd, ... (tournaments.series.PointsRule); every place beyond the list earns
    # `participation_points`; with `best_of`, a player's best N events count.
    placings = models.JSONField(default=default_placings)
    participation_points = models.FloatField(default=0)
    best_of = models.PositiveSmallIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name_plural = "series"

    def __str__(self) -> str:
        return self.name
