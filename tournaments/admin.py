"""The Django admin covers every tournament model (for repairs; the organizer pages are the way to run
an event, and they keep the audit log)."""

from django.contrib import admin

from .models import AuditEntry, Bye, Draft, Entrant, Event, Round, RoundClock, Seat, Table


class EntrantInline(admin.TabularInline):
    model = Entrant
    extra = 0
    fields = ("name", "user", "checked_in", "dropped", "dropped_after", "late_round", "factions")


class RoundInline(admin.TabularInline):
    model = Round
    extra = 0
    fields = ("number", "stage", "status", "method", "summary")
    show_change_link = True


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ("name", "date", "place", "status", "table_size", "organizer")
    list_filter = ("status", "mode", "table_size", "draft_mode")
    search_fields = ("name", "place", "organizer__username")
    filter_horizontal = ("co_organizers",)
    readonly_fields = ("version", "created_at", "updated_at")
    inlines = [EntrantInline, RoundInline]


@admin.register(Entrant)
class EntrantAdmin(admin.ModelAdmin):
    list_display = ("name", "event", "user", "checked_in", "dropped", "dropped_after", "late_round")
    list_filter = ("checked_in", "dropped")
    search_fields = ("name", "event__name", "user__username")
    readonly_fields = ("token", "created_at")


class TableInline(admin.TabularInline):
    model = Table
    extra = 0
    fields = ("number", "state", "result_version", "reported_by", "decided_by")
    show_change_link = True


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ("__str__", "event", "number", "stage", "status", "method")
    list_filter = ("stage", "status")
    inlines = [TableInline]


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("position", "entrant", "vp", "confirmed", "factions")


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ("__str__", "round", "number", "state")
    list_filter = ("state",)
    inlines = [SeatInline]


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):
    list_display = ("entrant", "table", "position", "vp", "confirmed")


@admin.register(Bye)
class ByeAdmin(admin.ModelAdmin):
    list_display = ("entrant", "round")


@admin.register(RoundClock)
class RoundClockAdmin(admin.ModelAdmin):
    list_display = ("__str__", "status", "deadline", "remaining", "version")
    list_filter = ("status",)


@admin.register(Draft)
class DraftAdmin(admin.ModelAdmin):
    list_display = ("__str__", "status", "version", "deadline")
    list_filter = ("status",)


@admin.register(AuditEntry)
class AuditEntryAdmin(admin.ModelAdmin):
    list_display = ("at", "event", "actor", "action", "message")
    list_filter = ("action",)
    search_fields = ("message", "actor")
    readonly_fields = ("event", "at", "user", "actor", "action", "message", "data")

    def has_change_permission(self, request, obj=None):
        return False  # append-only


from . import records_admin  # noqa: E402, F401  (series and the stored ratings)
