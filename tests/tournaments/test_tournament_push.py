"""Web Push of a player's notices (tournaments.push), against a push push_service on loopback that
decrypts every message with the subscription's own keys and verifies the VAPID signature and
audience (tests/tournaments/push_service.py), so encryption and signing are really checked.

The sending through a Celery worker, the e-mails and the pages: test_tournament_notice_delivery.py."""

from __future__ import annotations

import json
import os
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from django.core.exceptions import ImproperlyConfigured
from django.core.management import call_command

from smashup.config import DEFAULT_PUSH_SERVICES, vapid_public_key, web_push_settings
from tests.tournaments.push_service import decrypt, verify_vapid
from tournaments import push
from tournaments.notices import Notice

NOTICE = Notice("paired:2", "Round 2: table 3", "Cup: you play at table 3, seat 1 (you go first).")


def keys_of(sub) -> push.Keys:
    return push.check_subscription(sub.endpoint, sub.p256dh, sub.auth)


def test_a_message_arrives_decrypted_signed_for_the_service_and_tagged(push_service, vapid):
    sub = push_service.subscribe(vapid)
    result = push.send(keys_of(sub), push.payload(NOTICE, "/tournaments/5/me/"), ttl=600, topic="paired")
    assert result is push.Result.SENT, push_service.rejected
    [message] = push_service.received
    assert message.payload == {
        "title": "Round 2: table 3",
        "body": "Cup: you play at table 3, seat 1 (you go first).",
        "key": "paired:2",
        "url": "/tournaments/5/me/",
    }
    assert (
        message.claims["aud"] == push_service.origin and message.claims["sub"] == "mailto:tables@example.org"
    )
    assert message.headers["ttl"] == "600" and message.headers["urgency"] == "high"
    assert message.headers["topic"] == "paired"
    assert push_service.rejected == []


def test_each_message_has_its_own_salt_and_sender_key(push_service, vapid):
    """Two sends of one notice give two different bodies (a fresh salt and ECDH key each, RFC 8291)."""
    sub = push_service.subscribe(vapid)
    bodies = [push.encrypt(b"same words", sub.p256dh, sub.auth) for _ in range(2)]
    assert bodies[0] != bodies[1] and bodies[0][:16] != bodies[1][:16]
    assert [decrypt(b, sub.private_key, sub.auth_secret) for b in bodies] == [b"same words"] * 2


def test_a_message_for_other_keys_does_not_open(push_service, vapid):
    ada, bo = push_service.subscribe(vapid), push_service.subscribe(vapid)
    body = push.encrypt(b"for Ada", ada.p256dh, ada.auth)
    with pytest.raises(Exception):  # noqa: B017 - InvalidTag from AES-GCM, whatever its module
        decrypt(body, bo.private_key, bo.auth_secret)
    with pytest.raises(Exception):  # noqa: B017 - Ada's key with Bo's secret: still no
        decrypt(body, ada.private_key, bo.auth_secret)
    assert decrypt(body, ada.private_key, ada.auth_secret) == b"for Ada"


def test_the_checks_of_the_loopback_service_refuse_a_bad_signature_or_audience(push_service, vapid):
    """The test push_service is only worth its checks: a token signed by another key, for another
    audience, or tampered with, is refused."""
    header = push.vapid_authorization(push_service.origin + "/push/x")
    claims, key = verify_vapid(header, push_service.origin)
    assert key == vapid and claims["aud"] == push_service.origin
    with pytest.raises(ValueError, match="audience"):
        verify_vapid(header, "https://fcm.googleapis.com")
    token = header.split("t=")[1].split(",")[0]
    head, body, signature = token.split(".")
    forged = json.loads(push.b64url_decode(body)) | {"aud": "https://elsewhere.example"}
    tampered = header.replace(body, push.b64url(json.dumps(forged).encode()))
    with pytest.raises(ValueError, match="signature"):
        verify_vapid(tampered, "https://elsewhere.example")
    other, _ = push.new_key_pair()
    stranger = header.replace(vapid, vapid_public_key(other))  # the right token, another key named
    with pytest.raises(ValueError, match="signature"):
        verify_vapid(stranger, push_service.origin)


def test_a_message_signed_with_a_key_the_subscription_was_not_made_for_is_refused(push_service, vapid):
    _, someone_else = push.new_key_pair()
    sub = push_service.subscribe(someone_else)
    assert push.send(keys_of(sub), b"{}", ttl=60) is push.Result.FAILED
    assert push_service.received == [] and "other than the subscription's" in push_service.rejected[0]


@pytest.mark.parametrize("status,result", [(410, "gone"), (404, "gone"), (429, "failed"), (500, "failed")])
def test_what_the_push_service_answers(push_service, vapid, status, result):
    sub = push_service.subscribe(vapid)
    push_service.status[sub.endpoint.removeprefix(push_service.origin)] = status
    assert push.send(keys_of(sub), b"{}", ttl=60).value == result


def test_a_redirect_is_not_followed(vapid, settings):
    """A push push_service answers; a 3xx would take the message (and its token) elsewhere."""
    hits = []

    class Redirect(BaseHTTPRequestHandler):
        def do_POST(self):  # noqa: N802
            hits.append(self.path)
            self.send_response(307)
            self.send_header("Location", "/elsewhere")
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Redirect)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        origin = f"http://127.0.0.1:{server.server_address[1]}"
        settings.WEB_PUSH_SERVICES = [origin]
        browser = ec.generate_private_key(ec.SECP256R1()).public_key()
        p256dh = push.b64url(browser.public_bytes(Encoding.X962, PublicFormat.UncompressedPoint))
        keys = push.Keys(origin + "/push/a", p256dh, push.b64url(os.urandom(16)))
        assert push.send(keys, b"{}", ttl=60) is push.Result.FAILED
    finally:
        server.shutdown()
        server.server_close()
    assert hits == ["/push/a"]


def test_nothing_is_sent_without_a_vapid_key(push_service, vapid, settings):
    sub = push_service.subscribe(vapid)
    settings.VAPID_PRIVATE_KEY = None
    assert not push.enabled()
    assert push.send(keys_of(sub), b"{}", ttl=60) is push.Result.FAILED and push_service.received == []


def test_an_endpoint_removed_from_the_services_is_not_sent_to(push_service, vapid, settings):
    sub = push_service.subscribe(vapid)
    keys = keys_of(sub)
    settings.WEB_PUSH_SERVICES = list(DEFAULT_PUSH_SERVICES)
    assert push.send(keys, b"{}", ttl=60) is push.Result.FAILED and push_service.received == []


# ---------------------------------------------------------------------------------- what is accepted
@pytest.mark.parametrize(
    "endpoint,allowed",
    [
        ("https://fcm.googleapis.com/fcm/send/abc:def", True),
        ("https://updates.push.services.mozilla.com/wpush/v2/gAAAA", True),
        ("https://web.push.apple.com/QO1a", True),
        ("https://wns2-db5p.notify.windows.com/w/?token=x", True),
        ("https://push.apple.com/x", False),  # "*.push.apple.com" is its subdomains
        ("https://evilpush.apple.com/x", False),
        ("https://fcm.googleapis.com.evil.example/x", False),
        ("http://fcm.googleapis.com/fcm/send/x", False),  # not https
        ("https://fcm.googleapis.com:8443/fcm/send/x", False),  # another port
        ("https://user@fcm.googleapis.com/x", False),
        ("https://127.0.0.1/x", False),
        ("http://10.0.0.5:6379/", False),
        ("file:///etc/passwd", False),
        ("https://[::1/x", False),
        ("", False),
    ],
)
def test_only_known_push_services(endpoint, allowed):
    assert push.service_allowed(endpoint, DEFAULT_PUSH_SERVICES) is allowed


def test_a_subscription_is_checked_before_it_is_stored(push_service, vapid):
    sub = push_service.subscribe(vapid)
    good = push.check_subscription(sub.endpoint, sub.p256dh + "==", sub.auth)
    assert good == push.Keys(sub.endpoint, sub.p256dh, sub.auth)  # padding dropped
    bad = [
        ("", sub.p256dh, sub.auth, "no endpoint"),
        (sub.endpoint + "x" * 2000, sub.p256dh, sub.auth, "too long"),
        ("https://push.example.org/x", sub.p256dh, sub.auth, "not one this site sends to"),
        (sub.endpoint, "not base64!", sub.auth, "base64url"),
        (sub.endpoint, sub.p256dh, push.b64url(b"short"), "16 bytes"),
        (sub.endpoint, push.b64url(b"\x04" + b"\x01" * 64), sub.auth, "P-256"),  # not on the curve
        (sub.endpoint, push.b64url(b"\x02" + b"\x01" * 32), sub.auth, "P-256"),  # compressed
    ]
    for endpoint, p256dh, auth, message in bad:
        with pytest.raises(push.BadSubscription, match=message):
            push.check_subscription(endpoint, p256dh, auth)


# ---------------------------------------------------------------------------------- configuration
def test_web_push_settings_from_the_environment():
    assert web_push_settings({})["VAPID_PRIVATE_KEY"] is None
    assert web_push_settings({})["WEB_PUSH_SERVICES"] == DEFAULT_PUSH_SERVICES
    private, public = push.new_key_pair()
    env = {"VAPID_PRIVATE_KEY": private, "VAPID_SUBJECT": "https://tables.example.org"}
    values = web_push_settings(env)
    assert values["VAPID_PUBLIC_KEY"] == public and values["VAPID_SUBJECT"] == "https://tables.example.org"
    assert web_push_settings({**env, "VAPID_PUBLIC_KEY": public})["VAPID_PUBLIC_KEY"] == public
    services = web_push_settings({"WEB_PUSH_SERVICES": "https://push.example.org, http://127.0.0.1:9000"})
    assert services["WEB_PUSH_SERVICES"] == ["https://push.example.org", "http://127.0.0.1:9000"]


@pytest.mark.parametrize(
    "env,message",
    [
        ({"VAPID_PRIVATE_KEY": "not a key", "VAPID_SUBJECT": "mailto:a@b.org"}, "VAPID_PRIVATE_KEY"),
        ({"VAPID_PRIVATE_KEY": push.b64url(b"\x00" * 32), "VAPID_SUBJECT": "mailto:a@b.org"}, "P-256"),
        ({"VAPID_PRIVATE_KEY": push.b64url(b"\x01" * 31), "VAPID_SUBJECT": "mailto:a@b.org"}, "31 bytes"),
        ({"VAPID_PRIVATE_KEY": "KEY"}, "VAPID_SUBJECT"),
        ({"VAPID_PRIVATE_KEY": "KEY", "VAPID_SUBJECT": "tables@example.org"}, "VAPID_SUBJECT"),
        ({"VAPID_PRIVATE_KEY": "KEY", "VAPID_SUBJECT": "http://tables.example.org"}, "VAPID_SUBJECT"),
        ({"VAPID_PRIVATE_KEY": "KEY", "VAPID_SUBJECT": "mailto:a@b.org", "VAPID_PUBLIC_KEY": "OTHER"},
         "does not belong"),
        ({"VAPID_SUBJECT": "mailto:a@b.org"}, "without VAPID_PRIVATE_KEY"),
        ({"WEB_PUSH_SERVICES": "http://push.example.org"}, "WEB_PUSH_SERVICES"),
        ({"WEB_PUSH_SERVICES": "https://push.example.org/path"}, "WEB_PUSH_SERVICES"),
        ({"WEB_PUSH_SERVICES": "https://a.example.org,,https://b.example.org"}, "WEB_PUSH_SERVICES"),
    ],
)  # fmt: skip
def test_bad_web_push_settings_stop_the_server_with_a_message(env, message):
    private, _ = push.new_key_pair()
    _, other_public = push.new_key_pair()
    env = {k: v.replace("KEY", private).replace("OTHER", other_public) for k, v in env.items()}
    with pytest.raises(ImproperlyConfigured, match=message):
        web_push_settings(env)


def test_the_command_prints_a_key_pair_the_settings_take(capsys):
    call_command("vapid_keys")
    lines = dict(
        line.split("=", 1) for line in capsys.readouterr().out.splitlines() if not line.startswith("#")
    )
    values = web_push_settings(lines)
    assert values["VAPID_PUBLIC_KEY"] == lines["VAPID_PUBLIC_KEY"]
    assert len(push.b64url_decode(lines["VAPID_PRIVATE_KEY"])) == 32
