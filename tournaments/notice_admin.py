"""The admin of players' notices away from their page (push subscriptions, e-mail addresses, what
was sent), for repairs: registered by the app config (apps.py) beside tournaments/admin.py."""

from django.contrib import admin

from .models import NoticeEmail, NoticeSent, PushSubscription


@admin.register(PushSubscription)
class PushSubscriptionAdmin(admin.ModelAdmin):
    list_display = ("entrant", "service", "created_at", "last_sent_at")
    search_fields = ("entrant__name", "entrant__event__name")
    readonly_fields = ("entrant", "endpoint", "p256dh", "auth", "created_at", "last_sent_at")

    @admin.display(description="push service")
    def service(self, obj) -> str:
        from urllib.parse import urlsplit

        return urlsplit(obj.endpoint).hostname or ""


@admin.register(NoticeEmail)
class NoticeEmailAdmin(admin.ModelAdmin):
    list_display = ("entrant", "address", "confirmed_at", "created_at")
    list_filter = (("confirmed_at", admin.EmptyFieldListFilter),)
    search_fields = ("entrant__name", "address")
    readonly_fields = ("entrant", "origin", "created_at")


@admin.register(NoticeSent)
class NoticeSentAdmin(admin.ModelAdmin):
    list_display = ("key", "entrant", "at")
    search_fields = ("key", "entrant__name")
    readonly_fields = ("entrant", "key", "at")
