"""Fixtures of the notices by Web Push and e-mail: a push service on loopback that decrypts and
verifies what it receives (push_service.py), the site's VAPID keys, and a real SMTP server on
loopback (aiosmtpd) that the site's mail settings point at."""

from __future__ import annotations

import time

import pytest

from smashup.config import email_settings, web_push_settings
from smashup.core.launcher import free_port
from tests.tournaments.push_service import PushService


@pytest.fixture
def push_service():
    running = PushService().start()
    yield running
    running.stop()


@pytest.fixture
def vapid(settings, push_service) -> str:
    """The site's VAPID keys (as the environment gives them), the loopback push service among those
    it sends to; returns the public key."""
    from tournaments.push import new_key_pair

    private, public = new_key_pair()
    values = web_push_settings(
        {
            "VAPID_PRIVATE_KEY": private,
            "VAPID_SUBJECT": "mailto:tables@example.org",
            "WEB_PUSH_SERVICES": f"{push_service.origin},https://fcm.googleapis.com",
        }
    )
    for name, value in values.items():
        setattr(settings, name, value)
    return public


class Inbox(list):
    def wait_for(self, count: int, timeout: float = 60.0) -> list:
        deadline = time.monotonic() + timeout
        while len(self) < count and time.monotonic() < deadline:
            time.sleep(0.05)
        return list(self)


@pytest.fixture
def inbox(settings):
    """A real SMTP server on 127.0.0.1 receiving the site's mails (settings from the environment
    as config.email_settings reads it)."""
    from aiosmtpd.controller import Controller
    from aiosmtpd.handlers import Message

    received = Inbox()

    class Handler(Message):
        def handle_message(self, message):
            received.append(message)

    controller = Controller(Handler(), hostname="127.0.0.1", port=free_port())
    controller.start()
    env = {
        "EMAIL_HOST": "127.0.0.1",
        "EMAIL_PORT": str(controller.port),
        "EMAIL_USE_TLS": "false",
        "DEFAULT_FROM_EMAIL": "Smash Up table <tables@example.org>",
    }
    for name, value in email_settings(env).items():
        setattr(settings, name, value)
    yield received
    controller.stop()
