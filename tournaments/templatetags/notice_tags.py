"""The player's page's panel for notices away from the page: push on this phone, e-mail
(templates/tournaments/_notice_channels.html; tournaments.views.notices answers its forms)."""

from django import template
from django.conf import settings

from tournaments.models import NoticeEmail

register = template.Library()


@register.inclusion_tag("tournaments/_notice_channels.html", takes_context=True)
def notice_channels(context, event, me):
    request = context.get("request")
    user = getattr(request, "user", None)
    own = ""
    if user is not None and user.is_authenticated and me.user_id == user.pk:
        own = user.email or ""
    row = NoticeEmail.objects.filter(entrant=me).first()
    return {
        "event": event,
        "me": me,
        "csrf_token": context.get("csrf_token"),
        "push_key": getattr(settings, "VAPID_PUBLIC_KEY", None) or "",
        "mail": row,
        "address": row.address if row is not None else own,
    }
