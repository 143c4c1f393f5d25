"""The demo organizer account of the embedded (DEBUG) setup."""

from __future__ import annotations

from django.contrib.auth import get_user_model

DEMO_USERNAME = "organizer"
DEMO_PASSWORD = "smashup-demo"


def ensure_demo_organizer() -> tuple[object, bool]:
    """Create the demo organizer (staff and superuser) if missing. An existing user is left as it is,
    password included. Returns (user, created). Callers only use this in DEBUG mode."""
    User = get_user_model()
    user = User.objects.filter(username=DEMO_USERNAME).first()
    if user is not None:
        return user, False
    user = User.objects.create_superuser(username=DEMO_USERNAME, email="", password=DEMO_PASSWORD)
    return user, True
