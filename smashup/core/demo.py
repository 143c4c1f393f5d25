"""The demo organizer account of the embedded (DEBUG) setup."""

from __future__ import annotations

import ipaddress

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


def is_loopback(host: str) -> bool:
    """Whether a server bound to `host` can be reached from this machine only. An empty host, a
    wildcard (0.0.0.0, ::) or any other address or name is reachable from elsewhere."""
    if host.strip("[]").lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def public_password_warning(host: str) -> str | None:
    """What `start` says, loudly, when the DEBUG setup (with its demo organizer) is asked to listen
    on an address other machines can reach: the demo password is printed in the README, so anyone
    on the network could log in as an organizer and administrator. None on a loopback address."""
    if is_loopback(host):
        return None
    return (
        f"WARNING: listening on {host or 'every address'}, reachable from other machines, in the DEBUG "
        f"demo setup. The demo organizer '{DEMO_USERNAME}' has the PUBLIC password '{DEMO_PASSWORD}' "
        "(it is in the README) and is an administrator: anyone who can reach this address can log "
        f"in as them. Change it now (python manage.py changepassword {DEMO_USERNAME}), or listen on "
        "127.0.0.1 (the default), or run with DEBUG=false and real settings."
    )
