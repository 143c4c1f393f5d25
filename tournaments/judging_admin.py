"""The Django admin of judge calls and penalties (registered from apps.py, beside admin.py). Penalties
are given and revoked on the dashboard, which keeps the audit log; here they can only be read."""

from django.contrib import admin

from .models import JudgeCall, Penalty


@admin.register(JudgeCall)
class JudgeCallAdmin(admin.ModelAdmin):
    list_display = ("__str__", "event", "entrant", "table_number", "status", "created_at")
    list_filter = ("status",)
    search_fields = ("entrant__name", "event__name", "note")
    raw_id_fields = ("event", "entrant", "table", "closed_by")


@admin.register(Penalty)
class PenaltyAdmin(admin.ModelAdmin):
    list_display = ("__str__", "event", "entrant", "kind", "round_number", "vp", "created_at", "revoked_at")
    list_filter = ("kind",)
    search_fields = ("entrant__name", "event__name", "note")
    readonly_fields = (
        "event", "entrant", "kind", "round_number", "vp", "note", "created_at", "given_by", "revoked_at",
        "revoked_by",
    )  # fmt: skip

    def has_add_permission(self, request):
        return False
