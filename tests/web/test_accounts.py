"""Accounts (issue 28, finding 4): sign-up confirmed by an e-mailed link, the same answer whether or
not a user name or an e-mail has an account, a user name clash settled with the owner of the e-mail
alone, password reset by e-mail, sign-ups and resets limited per address and mails per recipient;
existing accounts log in as before; the e-mail settings from the environment; one sign-up through a
real SMTP server on loopback."""

from __future__ import annotations

import html
import re
import time

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.exceptions import ImproperlyConfigured
from django.test import Client

from smashup.config import email_settings
from smashup.core import mail as account_mail
from smashup.core.demo import DEMO_PASSWORD, DEMO_USERNAME, ensure_demo_organizer
from smashup.core.models import PendingSignup

pytestmark = pytest.mark.django_db

PASSWORD = "a long pass phrase 7"
GOOD = {"username": "ada", "email": "Ada@Example.org", "password1": PASSWORD, "password2": PASSWORD}
User = get_user_model()


def outbox() -> list:
    account_mail.flush()
    return list(mail.outbox)


def link_in(message, pattern: str = r"/accounts/\S+") -> str:
    return re.search(rf"https?://[^/\s]+({pattern})", message.body).group(1)


def page_text(response) -> str:
    """What a page says, without what differs on every request (the CSRF token)."""
    text = html.unescape(response.content.decode())
    return re.sub(r'(csrfmiddlewaretoken" value="|X-CSRFToken": ")[^"]+', "", text)


def sign_up(client: Client, **fields):
    response = client.post("/accounts/signup/", {**GOOD, **fields})
    assert response.status_code == 302 and response["Location"] == "/accounts/signup/sent/", response
    return client.get(response["Location"])


# ---------------------------------------------------------------------------------- sign-up ------
def test_signing_up_mails_a_link_that_makes_the_account_and_goes_back_to_the_page(client):
    page = client.get("/tournaments/").content.decode()
    assert 'href="/accounts/login/?next=/tournaments/"' in page and "/accounts/signup/?next=" in page
    sent = sign_up(client, next="/tournaments/")
    assert "Check your e-mail" in sent.content.decode()
    assert not User.objects.filter(username="ada").exists()  # nothing until the link is opened
    [message] = outbox()
    assert message.to == ["ada@example.org"] and "ada" in message.body
    assert PASSWORD not in message.body and PendingSignup.objects.get().password != PASSWORD
    link = link_in(message)
    browser = Client()  # the mail may be opened on another device
    form = browser.get(link)
    assert form.status_code == 200 and "Create my account" in form.content.decode()
    assert not User.objects.filter(username="ada").exists()  # opening it (a mail scanner) makes nothing
    made = browser.post(link, {"username": "ada"})
    assert made.status_code == 302 and made["Location"] == "/tournaments/"
    user = User.objects.get(username="ada")
    assert user.email == "ada@example.org" and user.check_password(PASSWORD)
    assert browser.session["_auth_user_id"] == str(user.pk)
    assert not PendingSignup.objects.exists()
    again = Client().get(link)
    assert again.status_code == 404 and "no longer works" in again.content.decode()


def test_sign_up_says_the_same_whether_or_not_the_name_or_the_email_has_an_account():
    User.objects.create_user("ada", "ada@example.org", "old pass phrase 9")
    answers = [
        page_text(sign_up(Client(), username="bea", email="bea@example.org")),  # all new
        page_text(sign_up(Client(), username="zed", email="ADA@example.org")),  # the e-mail has one
        page_text(sign_up(Client(), username="Ada", email="cy@example.org")),  # the name is taken
    ]
    assert answers[0] == answers[1] == answers[2]
    assert User.objects.count() == 1 and PendingSignup.objects.count() == 2
    to_bea, to_ada, to_cy = outbox()
    assert to_ada.to == ["ada@example.org"] and "already has an account" in to_ada.body
    assert '"ada"' in to_ada.body and "zed" not in to_ada.body
    # The mail offers a reset that works.
    reset = Client().get(link_in(to_ada, r"/accounts/reset/\S+"), follow=True)
    assert "Choose a new password" in reset.content.decode()
    # The clash of names is settled on the link's page, with the owner of cy@example.org alone.
    owner = Client()
    page = html.unescape(owner.get(link_in(to_cy)).content.decode())
    assert "The user name Ada was taken" in page
    refused = html.unescape(owner.post(link_in(to_cy), {"username": "ADA"}).content.decode())
    assert "The user name ADA is taken: choose another." in refused
    assert owner.post(link_in(to_cy), {"username": "cy"}).status_code == 302
    assert User.objects.get(username="cy").email == "cy@example.org"


def test_sign_up_never_sends_you_to_another_site():
    refused = Client().post("/accounts/signup/", {**GOOD, "next": "https://evil.example/"})
    assert refused.status_code == 400 and "'next' must be a page of this site" in html.unescape(
        refused.content.decode()
    )
    assert not outbox() and not PendingSignup.objects.exists()


def test_sign_up_errors_are_about_what_was_typed_only():
    User.objects.create_user("ada", "ada@example.org", "old pass phrase 9")
    client = Client()
    for fields, said in (
        ({"password1": "1", "password2": "1"}, "This password is too short"),
        ({"password2": "something else 1"}, "The two passwords differ."),
        ({"username": "a b"}, "Enter a valid username"),
        ({"email": "not an e-mail"}, "Enter a valid email address"),
    ):
        response = client.post("/accounts/signup/", {**GOOD, **fields})
        text = html.unescape(response.content.decode())
        assert response.status_code == 200 and said in text, (fields, text[-3000:])
        assert "taken" not in text and "exists" not in text and "already" not in text
    assert not outbox() and not PendingSignup.objects.exists()


def test_a_link_opened_after_the_email_got_an_account_says_so_to_its_owner():
    sign_up(Client())
    sign_up(Client(), username="ada2")
    first, second = outbox()
    assert Client().post(link_in(first), {"username": "ada"}).status_code == 302
    # Making the account spent every pending link of that e-mail.
    assert Client().get(link_in(second)).status_code == 404


def test_sign_ups_are_limited_per_address_at_the_documented_default():
    for i in range(5):  # account_signup_address: 5 per hour
        sign_up(Client(REMOTE_ADDR="198.51.100.1"), username=f"p{i}", email=f"p{i}@example.org")
    refused = Client(REMOTE_ADDR="198.51.100.1").post("/accounts/signup/", {**GOOD, "email": "q@example.org"})
    assert refused.status_code == 429 and refused["Retry-After"] == "3600"
    assert "Too many sign-ups from this address" in refused.content.decode()
    assert len(outbox()) == 5 and PendingSignup.objects.count() == 5
    sign_up(Client(REMOTE_ADDR="198.51.100.2"), email="q@example.org")  # another address


def test_nobody_can_fill_a_strangers_inbox_through_the_forms():
    """At most 3 account mails an hour to one e-mail address (account_mail_email), whatever asked
    for them and from where; the pages say the same as ever."""
    User.objects.create_user("ada", "ada@example.org", "old pass phrase 9")
    answers = set()
    for i in range(3):
        sign_up(Client(REMOTE_ADDR=f"198.51.100.{i + 1}"), username=f"x{i}", email="ada@example.org")
    for i in range(3):
        response = Client(REMOTE_ADDR=f"198.51.100.{i + 10}").post(
            "/accounts/password-reset/", {"email": "ada@example.org"}, follow=True
        )
        answers.add(page_text(response))
    assert len(outbox()) == 3 and len(answers) == 1


# ---------------------------------------------------------------------------------- reset --------
def test_a_password_reset_mails_a_link_that_sets_a_new_password(client):
    User.objects.create_user("cy", "cy@example.org", "old pass phrase 9")
    response = client.post("/accounts/password-reset/", {"email": "cy@example.org"})
    assert response.status_code == 302
    [message] = outbox()
    link = link_in(message, r"/accounts/reset/\S+")
    form = client.get(link, follow=True)
    assert "Choose a new password" in form.content.decode()
    done = client.post(
        form.redirect_chain[-1][0],
        {"new_password1": "new pass phrase 8", "new_password2": "new pass phrase 8"},
    )
    assert done.status_code == 302
    assert User.objects.get(username="cy").check_password("new pass phrase 8")
    assert client.get(link, follow=True).content.decode().count("This link no longer works") == 1


def test_a_password_reset_answers_the_same_for_any_email():
    User.objects.create_user("cy", "cy@example.org", "old pass phrase 9")
    known = Client().post("/accounts/password-reset/", {"email": "cy@example.org"}, follow=True)
    unknown = Client().post("/accounts/password-reset/", {"email": "nobody@example.org"}, follow=True)
    assert page_text(known) == page_text(unknown)
    assert [m.to for m in outbox()] == [["cy@example.org"]]


def test_password_resets_are_limited_per_address_at_the_documented_default():
    for i in range(5):  # password_reset_address: 5 per hour
        response = Client(REMOTE_ADDR="198.51.100.1").post(
            "/accounts/password-reset/", {"email": f"{i}@x.org"}
        )
        assert response.status_code == 302
    refused = Client(REMOTE_ADDR="198.51.100.1").post("/accounts/password-reset/", {"email": "a@x.org"})
    assert refused.status_code == 429 and "Too many password resets" in refused.content.decode()
    other = Client(REMOTE_ADDR="198.51.100.2").post("/accounts/password-reset/", {"email": "a@x.org"})
    assert other.status_code == 302


# ---------------------------------------------------------------------------------- old accounts -
def test_existing_accounts_and_the_demo_organizer_log_in_as_before():
    User.objects.create_user("old", "", "an old pass phrase 1")  # made before e-mails were asked
    ensure_demo_organizer()
    for name, password in (("old", "an old pass phrase 1"), (DEMO_USERNAME, DEMO_PASSWORD)):
        client = Client()
        response = client.post("/accounts/login/", {"username": name, "password": password})
        assert response.status_code == 302 and "_auth_user_id" in client.session, name


# ---------------------------------------------------------------------------------- settings -----
def test_email_settings_come_from_the_environment():
    assert email_settings({})["EMAIL_BACKEND"].endswith("console.EmailBackend")
    smtp = email_settings({"EMAIL_HOST": "mail.example.org", "EMAIL_HOST_USER": "u", "EMAIL_PORT": "2525"})
    assert smtp["EMAIL_BACKEND"].endswith("smtp.EmailBackend") and smtp["EMAIL_PORT"] == 2525
    assert smtp["EMAIL_USE_TLS"] is True and smtp["EMAIL_HOST_USER"] == "u"
    with pytest.raises(ImproperlyConfigured, match="EMAIL_PORT"):
        email_settings({"EMAIL_HOST": "h", "EMAIL_PORT": "smtp"})
    with pytest.raises(ImproperlyConfigured, match="cannot both"):
        email_settings({"EMAIL_HOST": "h", "EMAIL_USE_SSL": "true"})
    with pytest.raises(ImproperlyConfigured, match="EMAIL_USE_TLS"):
        email_settings({"EMAIL_HOST": "h", "EMAIL_USE_TLS": "maybe"})


def test_the_system_check_warns_when_mails_would_reach_nobody(settings):
    from django.core.checks import run_checks

    settings.DEBUG = False
    settings.EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
    assert "smashup.W001" in [m.id for m in run_checks()]
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    assert "smashup.W001" not in [m.id for m in run_checks()]
    settings.DEBUG, settings.EMAIL_BACKEND = True, "django.core.mail.backends.console.EmailBackend"
    assert "smashup.W001" not in [m.id for m in run_checks()]


def test_a_sign_up_through_a_real_smtp_server_on_loopback(settings):
    """The settings that config.email_settings makes from the environment, a real SMTP conversation
    (aiosmtpd on 127.0.0.1), and the link in the mail that arrives."""
    from aiosmtpd.controller import Controller
    from aiosmtpd.handlers import Message

    from smashup.core.launcher import free_port

    received = []

    class Inbox(Message):
        def handle_message(self, message):
            received.append(message)

    controller = Controller(Inbox(), hostname="127.0.0.1", port=free_port())
    controller.start()
    try:
        env = {
            "EMAIL_HOST": "127.0.0.1",
            "EMAIL_PORT": str(controller.port),
            "EMAIL_USE_TLS": "false",
            "DEFAULT_FROM_EMAIL": "Smash Up table <tables@example.org>",
        }
        for name, value in email_settings(env).items():
            setattr(settings, name, value)
        sign_up(Client(), email="ada@example.org")
        account_mail.flush()
        deadline = time.monotonic() + 30
        while not received and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        controller.stop()
    [message] = received
    assert message["To"] == "ada@example.org" and "tables@example.org" in message["From"]
    body = message.get_payload(decode=True).decode()
    link = re.search(r"https?://[^/\s]+(/accounts/signup/confirm/\S+)", body).group(1)
    browser = Client()
    assert browser.post(link, {"username": "ada"}).status_code == 302
    assert User.objects.get(username="ada").email == "ada@example.org"
