"""The admin of series (editable, for repairs) and of the stored ratings (read-only: they are derived
from the results, and `manage.py rerate` rebuilds them). Imported by tournaments.admin."""

from django.contrib import admin

from .rating_models import PlayerRating, RatedEvent, RatedRound, RatingChange, RatingState
from .series_models import Series


@admin.register(Series)
class SeriesAdmin(admin.ModelAdmin):
    list_display = ("name", "organizer", "created_at")
    search_fields = ("name", "organizer__username")
    filter_horizontal = ("co_organizers", "events")
    readonly_fields = ("created_at", "updated_at")


class DerivedAdmin(admin.ModelAdmin):
    """Rows computed from the results: shown, never edited by hand (`manage.py rerate --all`)."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(PlayerRating)
class PlayerRatingAdmin(DerivedAdmin):
    list_display = ("user", "rating", "mu", "sigma", "games", "events")
    search_fields = ("user__username",)
    ordering = ("-rating",)


@admin.register(RatingChange)
class RatingChangeAdmin(DerivedAdmin):
    list_display = ("entrant", "user", "event", "round_number", "mu_before", "mu", "sigma")
    list_select_related = ("entrant", "user", "event")


@admin.register(RatedRound)
class RatedRoundAdmin(DerivedAdmin):
    list_display = ("__str__", "event_date", "event_ref", "number", "round")


@admin.register(RatedEvent)
class RatedEventAdmin(DerivedAdmin):
    list_display = ("event", "version")


@admin.register(RatingState)
class RatingStateAdmin(DerivedAdmin):
    list_display = ("model", "updated_at")
