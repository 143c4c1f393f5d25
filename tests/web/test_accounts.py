"""Accounts: sign-up (back to the page you came from, never to another site), password reset by
e-mail, and the e-mail settings from the environment."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.exceptions import ImproperlyConfigured

from smashup.config import email_settings

pytestmark = pytest.mark.django_db

PASSWORD = "a long pass phrase 7"
GOOD = {"username": "ada", "email": "Ada@Example.org", "password1": PASSWORD, "password2": PASSWORD}


def test_sign_up_logs_in_and_goes_back_to_the_page_it_came_from(client):
    page = client.get("/tournaments/").content.decode()
    assert 'href="/accounts/login/?next=/tournaments/"' in page and "/accounts/signup/?next=" in page
    response = client.post("/accounts/signup/", {**GOOD, "next": "/tournaments/"})
    assert response.status_code == 302 and response["Location"] == "/tournaments/"
    user = get_user_model().objects.get(username="ada")
    assert user.email == "ada@example.org" and client.session["_auth_user_id"] == str(user.pk)


def test_sign_up_never_sends_you_to_another_site_and_refuses_bad_input(client):
    response = client.post("/accounts/signup/", {**GOOD, "next": "https://evil.example/"})
    assert response["Location"] == "/"
    other = client.__class__()
    again = other.post("/accounts/signup/", {**GOOD, "username": "ada2"})  # same e-mail
    assert again.status_code == 200 and "reset its password instead" in again.content.decode()
    weak = {**GOOD, "username": "bob", "email": "b@x.org", "password1": "1", "password2": "1"}
    short = other.post("/accounts/signup/", weak)
    assert short.status_code == 200
    assert get_user_model().objects.filter(username__in=["ada2", "bob"]).count() == 0


def test_a_password_reset_mails_a_link_that_sets_a_new_password(client):
    get_user_model().objects.create_user("cy", "cy@example.org", "old pass phrase 9")
    response = client.post("/accounts/password-reset/", {"email": "cy@example.org"})
    assert response.status_code == 302 and len(mail.outbox) == 1
    body = mail.outbox[0].body
    link = re.search(r"https?://[^/]+(/accounts/reset/\S+)", body).group(1)
    form = client.get(link, follow=True)
    assert "Choose a new password" in form.content.decode()
    done = client.post(
        form.redirect_chain[-1][0],
        {"new_password1": "new pass phrase 8", "new_password2": "new pass phrase 8"},
    )
    assert done.status_code == 302
    assert get_user_model().objects.get(username="cy").check_password("new pass phrase 8")
    assert client.get(link, follow=True).content.decode().count("This link no longer works") == 1
    # Unknown e-mails look the same from outside and send nothing.
    client.post("/accounts/password-reset/", {"email": "nobody@example.org"})
    assert len(mail.outbox) == 1


def test_email_settings_come_from_the_environment():
    assert email_settings({})["EMAIL_BACKEND"].endswith("console.EmailBackend")
    smtp = email_settings({"EMAIL_HOST": "mail.example.org", "EMAIL_HOST_USER": "u", "EMAIL_PORT": "2525"})
    assert smtp["EMAIL_BACKEND"].endswith("smtp.EmailBackend") and smtp["EMAIL_PORT"] == 2525
    assert smtp["EMAIL_USE_TLS"] is True and smtp["EMAIL_HOST_USER"] == "u"
    with pytest.raises(ImproperlyConfigured, match="EMAIL_PORT"):
        email_settings({"EMAIL_HOST": "h", "EMAIL_PORT": "smtp"})
    with pytest.raises(ImproperlyConfigured, match="cannot both"):
        email_settings({"EMAIL_HOST": "h", "EMAIL_USE_SSL": "true"})
