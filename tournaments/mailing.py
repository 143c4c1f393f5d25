"""A player's notices by e-mail (Django's mail; SMTP as the README's Configuration says).

A player gives an address on their page. The address of their own account is taken at once (the
account's sign-up confirmed it); any other gets a mail with a link to confirm it first, so nobody can
have an event's notices sent to a stranger. Each notice mail carries a link that stops them without
logging in: a signature over the row and the address with a salt of its own (so no other signed value
of the site opens it, and it names one address: one given again later needs its own), working as
long as the row lives, and offered to mail programs as one-click unsubscribe (RFC 8058).

The mails themselves are composed here and sent by tournaments.delivery, in a Celery task.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.core import signing
from django.core.mail import EmailMessage, get_connection
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from smashup.core import limits
from smashup.core import mail as account_mail

from .models import Entrant, NoticeEmail

logger = logging.getLogger(__name__)

CONFIRM_SALT = "tournaments.notice-mail.confirm"
STOP_SALT = "tournaments.notice-mail.stop"
CONFIRM_SECONDS = 3 * 24 * 3600
SEND_TIMEOUT = 20  # seconds for the mail server


class BadLink(ValueError):
    """A confirmation or stop link that is forged, damaged, expired, or for an address no longer set."""


def _token(row: NoticeEmail, salt: str) -> str:
    return signing.dumps([row.pk, row.address.casefold()], salt=salt, compress=False)


def _row(token: str, salt: str, max_age: int | None = None) -> NoticeEmail:
    try:
        pk, address = signing.loads(token, salt=salt, max_age=max_age)
    except (signing.BadSignature, ValueError, TypeError):
        raise BadLink("This link is not valid (or has expired).") from None
    row = (
        NoticeEmail.objects.select_related("entrant__event").filter(pk=pk).first()
        if isinstance(pk, int)
        else None
    )
    if row is None or row.address.casefold() != address:
        raise BadLink("This link is for an address that no longer gets these notices.")
    return row


def stop_token(row: NoticeEmail) -> str:
    return _token(row, STOP_SALT)


def confirm_token(row: NoticeEmail) -> str:
    return _token(row, CONFIRM_SALT)


def row_for_stop(token: str) -> NoticeEmail:
    return _row(token, STOP_SALT)


def row_for_confirm(token: str) -> NoticeEmail:
    return _row(token, CONFIRM_SALT, CONFIRM_SECONDS)


def _account_address(entrant: Entrant, user) -> str:
    """The address of the entrant's own account, when the one asking is that account."""
    if user is None or not getattr(user, "is_authenticated", False) or entrant.user_id != user.pk:
        return ""
    return (user.email or "").strip()


def opt_in(entrant: Entrant, address: str, origin: str, user=None) -> NoticeEmail:
    """The player asks for their notices at `address` (already checked as an e-mail address).
    Their account's own address is confirmed at once; another gets a confirmation mail (at most
    ``account_mail_email`` mails per address and hour, as every mail a stranger could trigger)."""
    from .delivery import mark_seen

    address = address.strip()
    own = _account_address(entrant, user)
    confirmed = bool(own) and own.casefold() == address.casefold()
    with transaction.atomic():
        row, _ = NoticeEmail.objects.select_for_update().get_or_create(
            entrant=entrant, defaults={"address": address, "origin": origin}
        )
        changed = row.address.casefold() != address.casefold()
        if changed or not row.confirmed_at:
            row.address, row.origin = address, origin
            row.confirmed_at = timezone.now() if confirmed else None
            row.save()
    if confirmed:
        mark_seen(entrant)  # what the page shows now is not mailed afterwards
    else:
        send_confirmation(row)
    return row


def send_confirmation(row: NoticeEmail) -> bool:
    if not limits.hit("account_mail_email", account_mail.recipient_key(row.address)):
        logger.warning("a notice confirmation mail was not sent: its recipient had enough for now")
        return False
    event = row.entrant.event
    link = row.origin + reverse("tournaments:notice_mail_confirm", args=[confirm_token(row)])
    context = {"event": event, "entrant": row.entrant, "link": link, "days": CONFIRM_SECONDS // 86400}
    subject = render_to_string("tournaments/mail/confirm_subject.txt", context).strip()
    body = render_to_string("tournaments/mail/confirm_email.txt", context)
    account_mail.send_later(EmailMessage(subject, body, settings.DEFAULT_FROM_EMAIL, [row.address]))
    return True


def confirm(row: NoticeEmail) -> NoticeEmail:
    from .delivery import mark_seen

    if row.confirmed_at is None:
        NoticeEmail.objects.filter(pk=row.pk, confirmed_at__isnull=True).update(confirmed_at=timezone.now())
        row.refresh_from_db()
        mark_seen(row.entrant)
    return row


def stop(row: NoticeEmail) -> None:
    NoticeEmail.objects.filter(pk=row.pk).delete()


def notice_mail(row: NoticeEmail, notices: list) -> EmailMessage:
    """One mail with every notice of this moment for the player (most urgent first), a link to their
    page and the stop link, also as List-Unsubscribe with one-click POST (RFC 2369, RFC 8058)."""
    event = row.entrant.event
    stop_link = row.origin + reverse("tournaments:notice_mail_stop", args=[stop_token(row)])
    context = {
        "event": event,
        "entrant": row.entrant,
        "notices": notices,
        "page": row.origin + reverse("tournaments:me", args=[event.pk]),
        "stop": stop_link,
    }
    subject = render_to_string("tournaments/mail/notice_subject.txt", context)
    body = render_to_string("tournaments/mail/notice_email.txt", context)
    headers = {"List-Unsubscribe": f"<{stop_link}>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"}
    subject = " ".join(subject.split())
    return EmailMessage(subject, body, settings.DEFAULT_FROM_EMAIL, [row.address], headers=headers)


def send_all(messages: list[EmailMessage]) -> int:
    """Send `messages` over one connection; returns how many went. A mail server that fails is
    logged: the push messages and the next moments go on."""
    if not messages:
        return 0
    try:
        with get_connection(timeout=SEND_TIMEOUT) as connection:
            return connection.send_messages(messages) or 0
    except Exception:  # noqa: BLE001
        logger.exception("could not send %s notice mail(s)", len(messages))
        return 0
