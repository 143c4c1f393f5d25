"""Account mails (sign-up links, password resets, login links), sent off the request's thread.

An answer that waits for the mail server says something by its timing: a password reset for an
e-mail with an account would take the SMTP round trip and one without would not, and so would a login
with the right password while an account needs its e-mail confirmation (smashup/core/accounts.py). So
the request renders the mail and hands it to one sending thread per process (``send_later``), and
answers at once, the same way whatever was (or was not) sent. A mail that fails is logged; nobody
waits for it. ``flush()`` waits until every mail handed over is sent (tests, and the end of a
command).

Each recipient gets at most ``account_mail_email`` mails per window (smashup/core/limits.py): over it
a mail is dropped (and logged) while the page says the same as ever, so nobody can fill a stranger's
inbox through the sign-up or reset forms.
"""

from __future__ import annotations

import logging
import threading
from concurrent.futures import Future, ThreadPoolExecutor, wait

from django.conf import settings
from django.core.mail import EmailMessage
from django.template.loader import render_to_string

from smashup.core import limits

logger = logging.getLogger(__name__)

_executor: ThreadPoolExecutor | None = None
_pending: set[Future] = set()
_lock = threading.Lock()


def _send(message: EmailMessage) -> None:
    try:
        message.send()
    except Exception:  # noqa: BLE001 - a mail server that fails must not take anything down
        logger.exception("could not send the mail %r to %s", message.subject, ", ".join(message.to))


def _done(future: Future) -> None:
    with _lock:
        _pending.discard(future)


def send_later(message: EmailMessage) -> None:
    global _executor
    with _lock:
        if _executor is None:
            _executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="mail")
        future = _executor.submit(_send, message)
        _pending.add(future)
    future.add_done_callback(_done)


def flush(timeout: float = 30.0) -> None:
    """Wait until every mail handed to ``send_later`` so far has been sent (or has failed)."""
    with _lock:
        futures = list(_pending)
    wait(futures, timeout=timeout)


def recipient_key(email: str) -> str:
    return f"mail:{email.strip().casefold()}"


def send_account_mail(template: str, to: str, context: dict) -> bool:
    """Render ``registration/<template>_subject.txt`` and ``<template>_email.txt`` with `context` and
    send the mail to `to` in the background, unless `to` had its share of mails for now
    (``account_mail_email``). True when it was handed over."""
    if not limits.hit("account_mail_email", recipient_key(to)):
        logger.warning("an account mail (%s) was not sent: its recipient had enough for now", template)
        return False
    subject = "".join(render_to_string(f"registration/{template}_subject.txt", context).splitlines())
    body = render_to_string(f"registration/{template}_email.txt", context)
    send_later(EmailMessage(subject.strip(), body, settings.DEFAULT_FROM_EMAIL, [to]))
    return True
