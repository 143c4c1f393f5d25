"""System checks of the site's own settings (``manage.py check``, and every command that runs it)."""

from __future__ import annotations

from django.conf import settings
from django.core import checks


@checks.register(checks.Tags.compatibility)
def mail_is_delivered(app_configs=None, **kwargs):
    """With DEBUG off, account mails written to the log reach nobody: signing up cannot be finished,
    nor a password reset. The DEBUG setup writes them to the log on purpose (its console shows the
    links)."""
    if settings.DEBUG or not settings.EMAIL_BACKEND.endswith("console.EmailBackend"):
        return []
    return [
        checks.Warning(
            "EMAIL_HOST is not set while DEBUG is false: sign-up links, password resets and login "
            "links go to the server's log, not to people.",
            hint="Set EMAIL_HOST (and EMAIL_PORT, EMAIL_HOST_USER, EMAIL_HOST_PASSWORD, EMAIL_USE_TLS, "
            "DEFAULT_FROM_EMAIL): README, Configuration.",
            id="smashup.W001",
        )
    ]
