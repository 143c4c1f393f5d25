"""Live games in the admin (issue 28): the tables waiting for players or in play, who set them up and
from where, and an action that ends the selected ones (``stopping.end_game``).

Read only, and only what anyone at the table may know: never the secret seed, the seat tokens (they
make seat links), the draft's state, the choices (a choice names the cards chosen from a hand) or any
hand. A game's record is kept: games are not added or deleted here.
"""

from __future__ import annotations

from django.contrib import admin, messages
from django.db.models import Count, OuterRef, Q, Subquery
from django.utils.translation import ngettext

from .models import Choice, Game, Seat
from .stopping import end_game


class LiveFilter(admin.SimpleListFilter):
    """Live tables (waiting for players or in play) by default; finished ones or all on request."""

    title = "state"
    parameter_name = "state"

    def lookups(self, request, model_admin):
        return [("live", "Live (waiting or playing)"), ("finished", "Finished"), ("all", "All")]

    def choices(self, changelist):
        value = self.value() or "live"
        for lookup, title in self.lookup_choices:
            yield {
                "selected": value == lookup,
                "query_string": changelist.get_query_string({self.parameter_name: lookup}),
                "display": title,
            }

    def queryset(self, request, queryset):
        value = self.value() or "live"
        if value == "live":
            return queryset.filter(status__in=(Game.Status.LOBBY, Game.Status.ACTIVE))
        if value == "finished":
            return queryset.filter(status=Game.Status.FINISHED)
        return queryset


class SeatInline(admin.TabularInline):
    model = Seat
    # Not the token (it makes seat links) nor the factions (a lobby where each picks hides them).
    fields = ("index", "kind", "bot", "guest_name", "user", "claimed", "taken")
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = False

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = (
        "code",
        "mode",
        "status",
        "seats_list",
        "bots",
        "created_at",
        "last_move",
        "version",
        "turn_seconds",
        "created_by",
        "created_address",
        "stopped_at",
    )
    list_filter = (LiveFilter, "mode", "status")
    search_fields = ("code", "public_id", "created_address", "created_by__username")
    ordering = ("-created_at",)
    list_per_page = 50
    actions = ["end_selected"]
    inlines = [SeatInline]
    fields = (
        "public_id",
        "code",
        "mode",
        "status",
        "version",
        "pending_seat",
        "winner",
        "turn_seconds",
        "created_by",
        "created_address",
        "created_at",
        "started_at",
        "updated_at",
        "finished_at",
        "stopped_at",
        "stopped_by",
    )
    readonly_fields = fields

    def get_queryset(self, request):
        last = Choice.objects.filter(game=OuterRef("pk")).order_by("-created_at").values("created_at")[:1]
        return (
            super()
            .get_queryset(request)
            .select_related("created_by")
            .prefetch_related("seats__user")
            .annotate(
                bot_seats=Count("seats", filter=Q(seats__kind=Seat.Kind.BOT)),
                seat_count=Count("seats"),
                last_move_at=Subquery(last),
            )
        )

    @admin.display(description="seats")
    def seats_list(self, game: Game) -> str:
        return ", ".join(seat.display_name for seat in game.seats.all())

    @admin.display(description="bots")
    def bots(self, game: Game) -> str:
        return f"{game.bot_seats} of {game.seat_count}"

    @admin.display(description="last move", ordering="last_move_at")
    def last_move(self, game: Game):
        return game.last_move_at

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False  # a game's record is kept; end it instead

    def has_change_permission(self, request, obj=None):
        # Nothing is edited here (a game changes only through play's services): one game's page is
        # read only, while the list's action below needs the permission to change games.
        return obj is None and super().has_change_permission(request)

    @admin.action(
        description="End the selected games now (no winner; their pages are told)", permissions=("change",)
    )
    def end_selected(self, request, queryset):
        chosen = list(queryset.values_list("pk", flat=True))
        ended = sum(end_game(pk, by=request.user) for pk in chosen)
        over = len(chosen) - ended
        if ended:
            self.message_user(
                request, ngettext("Ended %d game.", "Ended %d games.", ended) % ended, messages.SUCCESS
            )
        if over:
            self.message_user(
                request,
                ngettext("%d game was over already.", "%d games were over already.", over) % over,
                messages.WARNING,
            )
