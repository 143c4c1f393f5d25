"""The Django admin covers every tournament model (for repairs; the organizer pages are the way to run
an event, and they keep the audit log).

The audit log is read-only here, superusers included: no adding, changing or deleting an entry
(models.AuditEntry refuses it too). An event with results cannot be deleted (models.Event refuses it;
its delete button is gone): the "Archive" action takes it out of the lists and keeps everything."""

from django.contrib import admin, messages
from django.db import transaction
from django.utils import timezone

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
    list_display = ("name", "date", "place", "status", "table_size", "organizer", "archived")
    list_filter = ("status", "mode", "table_size", "draft_mode", ("archived_at", admin.EmptyFieldListFilter))
    search_fields = ("name", "place", "organizer__username")
    filter_horizontal = ("co_organizers",)
    readonly_fields = ("version", "archived_at", "created_at", "updated_at")
    inlines = [EntrantInline, RoundInline]
    actions = ["archive", "restore"]

    @admin.display(boolean=True, description="archived")
    def archived(self, obj):
        return obj.is_archived

    def has_delete_permission(self, request, obj=None):
        if obj is not None and obj.has_results():
            return False  # archived, never deleted (models.ARCHIVE_INSTEAD)
        return super().has_delete_permission(request, obj)

    def get_deleted_objects(self, objs, request):
        """An event without results goes with its audit log (models.cascade_unless_results), which
        nobody may delete by itself: the log's entries do not ask for a permission of their own."""
        deleted, model_count, perms_needed, protected = super().get_deleted_objects(objs, request)
        perms_needed.discard(AuditEntry._meta.verbose_name)
        return deleted, model_count, perms_needed, protected

    @admin.action(description="Archive the selected events (out of the lists, everything kept)")
    def archive(self, request, queryset):
        self._archive(request, queryset, archived=True)

    @admin.action(description="List the selected events again")
    def restore(self, request, queryset):
        self._archive(request, queryset, archived=False)

    def _archive(self, request, queryset, archived: bool) -> None:
        from .services import _changed, _lock

        done = 0
        for pk in queryset.values_list("pk", flat=True):
            with transaction.atomic():
                event = _lock(pk)
                if event.is_archived == archived:
                    continue
                event.archived_at = timezone.now() if archived else None
                event.save(update_fields=["archived_at", "updated_at"])
                what = "Archived the event (admin)." if archived else "Listed the event again (admin)."
                _changed(event, request.user, "archive", what)
                done += 1
        verb = "archived" if archived else "listed again"
        messages.success(request, f"{done} event{'s' * (done != 1)} {verb}.")


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

    # Append-only, for superusers too: the log is what happened (models.AuditEntry).
    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


from . import records_admin  # noqa: E402, F401  (series and the stored ratings)
