"""A player's phone-sized page (390x844) turns on alerts for a locked phone: it asks for the
notification permission, subscribes this browser to Web Push with the site's VAPID key and gives the
server the subscription, which the server stores and then really pushes to, encrypted and signed.

Chromium cannot make a real push subscription on this machine: ``pushManager.subscribe`` registers
with Google's push service (FCM), which is not reachable from here (it waits forever; in a
Playwright context, which is off the record, it is refused at once). So the subscription object is
injected at the JavaScript boundary: ``PushManager.prototype.subscribe`` / ``getSubscription`` are
replaced by ones that return a subscription made by the test's push service on loopback
(tests/tournaments/push_service.py: a fresh P-256 key pair and auth secret, an endpoint of its own).
Everything else is the site's: the page's permission and subscribe flow, the key it passes, the POST,
the stored row, and the push the server sends, which the loopback service decrypts with that
subscription's private key after checking the VAPID signature and audience. The service worker's
push handler is run by a synthetic push event carrying what was decrypted."""

from __future__ import annotations

import json
import re
from concurrent.futures import ThreadPoolExecutor

from playwright.sync_api import expect

from smashup.config import web_push_settings
from smashup.core.launcher import free_port
from tests.tournaments.push_service import PushService, b64d
from tournaments.push import new_key_pair

from .conftest import PHONE
from .test_play import shoot

WAIT = 30_000
VAPID_PRIVATE, VAPID_PUBLIC = new_key_pair()
PUSH_PORT = free_port()
PUSH_ENV = {
    "VAPID_PRIVATE_KEY": VAPID_PRIVATE,
    "VAPID_SUBJECT": "mailto:tables@example.org",
    "WEB_PUSH_SERVICES": f"http://127.0.0.1:{PUSH_PORT}",
}
STACK_OPTIONS = {"env": PUSH_ENV}

# The browser's push manager, with the subscription the test's push service made (kept in
# localStorage, as a browser keeps a subscription across page loads). What the page asked for is
# recorded in window.__push.
INJECT = """
(function () {
  var made = %s;
  window.__push = { subscribe: [] };
  function subscription() {
    return {
      endpoint: made.endpoint,
      expirationTime: null,
      options: { userVisibleOnly: true, applicationServerKey: null },
      toJSON: function () { return made; },
      unsubscribe: function () {
        localStorage.removeItem("__sub");
        window.__push.unsubscribed = true;
        return Promise.resolve(true);
      }
    };
  }
  PushManager.prototype.getSubscription = function () {
    return Promise.resolve(localStorage.getItem("__sub") ? subscription() : null);
  };
  PushManager.prototype.subscribe = function (options) {
    window.__push.subscribe.push({
      userVisibleOnly: options.userVisibleOnly,
      key: Array.from(new Uint8Array(options.applicationServerKey))
    });
    localStorage.setItem("__sub", "1");
    return Promise.resolve(subscription());
  };
})();
"""

SHOW_PUSHED = """async (data) => {
  self.dispatchEvent(new PushEvent("push", { data: data }));
  for (let i = 0; i < 50; i++) {
    const shown = await self.registration.getNotifications();
    if (shown.length) return shown.map((n) => [n.title, n.body, n.tag, n.data && n.data.url]);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return [];
}"""

_db_pool = ThreadPoolExecutor(max_workers=1)


def _in_db_thread(fn, *args):
    """Database work in a thread of its own (Playwright's loop runs in the test thread, where Django
    refuses the database); the connection is closed afterwards."""

    def run():
        from django.db import connection

        try:
            return fn(*args)
        finally:
            connection.close()

    return _db_pool.submit(run).result(timeout=120)


def _event() -> tuple[int, str]:
    import datetime

    from django.contrib.auth import get_user_model

    from tournaments import services
    from tournaments.models import Event

    org = get_user_model().objects.create_user(username="org", password="pw-org")
    event = services.create_event(
        org, name="Push Cup", date=datetime.date(2026, 5, 1), draft_mode=Event.DraftMode.NONE, table_size=2
    )
    ada = services.register(event, "Ada", by=org)
    services.register(event, "Bo", by=org)
    return event.pk, ada.token


def _stored(event_pk: int) -> list[dict]:
    from tournaments.models import PushSubscription

    rows = PushSubscription.objects.filter(entrant__event_id=event_pk, entrant__name="Ada")
    return list(rows.values("endpoint", "p256dh", "auth"))


def _pair_and_deliver(event_pk: int) -> dict:
    from tournaments import delivery, services
    from tournaments.models import Event

    event = Event.objects.get(pk=event_pk)
    services.generate_round(event, event.organizer)
    return delivery.deliver(event_pk)  # what the Celery task does, here with this test's settings


def test_a_phone_sized_page_subscribes_and_the_server_pushes_to_it(stack, browser, screenshots, settings):
    for name, value in web_push_settings(PUSH_ENV).items():  # the server's keys, in this process too
        setattr(settings, name, value)
    service = PushService(port=PUSH_PORT).start()
    try:
        made = service.subscribe(VAPID_PUBLIC)
        event_pk, token = _in_db_thread(_event)
        base = stack.base_url
        context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
        context.grant_permissions(["notifications"], origin=base)
        context.add_init_script(INJECT % json.dumps(made.as_json()))
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(f"{base}/tournaments/p/{token}/")
        if not re.search(r"/me/$", page.url):  # the link's own page: its button switches the browser
            page.get_by_role("button", name="Continue as Ada").click()
        page.wait_for_url(re.compile(r".*/me/$"))

        # Alerts allowed: the page subscribes at once and the server keeps the subscription.
        state = page.locator("#t-push-state")
        expect(state).to_have_text(
            "Alerts reach this phone even when it is locked or this page is closed.", timeout=WAIT
        )
        expect(page.get_by_role("button", name="Stop alerts on this phone")).to_be_visible()
        asked = page.evaluate("window.__push.subscribe")
        assert asked == [{"userVisibleOnly": True, "key": list(b64d(VAPID_PUBLIC))}]
        assert _in_db_thread(_stored, event_pk) == [
            {"endpoint": made.endpoint, "p256dh": made.p256dh, "auth": made.auth}
        ]
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]  # no sideways scroll
        page.locator("#t-channels").scroll_into_view_if_needed()
        shoot(page, screenshots, "t-phone-push-on")

        # The round is paired: the server pushes to the stored subscription; the loopback service
        # opens it with the subscription's private key and checks the signature.
        assert _in_db_thread(_pair_and_deliver, event_pk)["pushed"] == 1
        [message] = service.wait_for(1)
        assert message.payload["key"] == "paired:1" and message.payload["title"] == "Round 1: table 1"
        assert message.payload["url"] == f"/tournaments/{event_pk}/me/"
        assert message.claims["aud"] == service.origin and service.rejected == []

        # The service worker shows a pushed notice, tagged with its moment (a synthetic push event:
        # the real one would come from the push service).
        workers = context.service_workers
        worker = workers[0] if workers else context.wait_for_event("serviceworker")
        shown = worker.evaluate(SHOW_PUSHED, json.dumps(message.payload))
        page_url = f"{base}/tournaments/{event_pk}/me/"
        assert shown == [["Round 1: table 1", message.payload["body"], "paired:1", page_url]]

        # Off on this phone: the server forgets it, and it stays off on the next visit.
        page.get_by_role("button", name="Stop alerts on this phone").click()
        expect(state).to_have_text("Alerts on this phone are off while this page is closed.", timeout=WAIT)
        assert page.evaluate("window.__push.unsubscribed") is True
        assert _in_db_thread(_stored, event_pk) == []
        page.reload()
        expect(page.get_by_role("button", name="Alert this phone when locked")).to_be_visible(timeout=WAIT)
        assert _in_db_thread(_stored, event_pk) == []
        # And on again.
        page.get_by_role("button", name="Alert this phone when locked").click()
        expect(state).to_have_text(
            "Alerts reach this phone even when it is locked or this page is closed.", timeout=WAIT
        )
        assert [row["endpoint"] for row in _in_db_thread(_stored, event_pk)] == [made.endpoint]
        assert errors == []
        context.close()
    finally:
        service.stop()
