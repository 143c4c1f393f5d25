/* A player's page (tournaments/me.html) tells them what just happened: their table is paired, their
   pick is up, the clock runs low, time is called, a result waits for their confirmation. The server
   renders the current notices as JSON in #t-notices-data (a live region, refreshed with the page
   by tournaments.js); each has a key naming its moment, and this device alerts once per key: a
   banner on the page and, on a phone that allowed it, a system notification and a vibration.

   Once the player allowed alerts, the page also subscribes this browser to Web Push (#t-push carries
   the site's VAPID public key and where to send the subscription, see
   templates/tournaments/_notice_channels.html): the server then sends the same notices to the service
   worker (templates/tournaments/notices_sw.js) while the page is closed or the phone locked, each
   with its key as the notification's tag, so the open page's own alert of a moment replaces the
   pushed one instead of doubling it. Turned off on this device, it stays off ("t-push-off"). */
(function () {
  "use strict";

  var registration = null;
  var storeKey = "t-notices:" + window.location.pathname;

  function seenKeys() {
    try { return JSON.parse(window.localStorage.getItem(storeKey) || "[]"); } catch (e) { return []; }
  }

  function remember(keys) {
    try { window.localStorage.setItem(storeKey, JSON.stringify(keys.slice(-60))); } catch (e) { /* private mode */ }
  }

  function current() {
    var el = document.getElementById("t-notices-data");
    if (!el) return [];
    try { return JSON.parse(el.textContent) || []; } catch (e) { return []; }
  }

  function banner(notice) {
    var bar = document.getElementById("t-notice-bar");
    if (!bar) return;
    var old = bar.querySelector('[data-key="' + notice.key + '"]');
    if (old) old.remove();
    var box = document.createElement("div");
    box.className = "t-notice";
    box.setAttribute("role", "alert");
    box.dataset.key = notice.key;
    var title = document.createElement("strong");
    title.textContent = notice.title;
    var body = document.createElement("span");
    body.textContent = " " + notice.body;
    var close = document.createElement("button");
    close.type = "button";
    close.className = "t-notice-close";
    close.setAttribute("aria-label", "Dismiss");
    close.textContent = "×";
    close.addEventListener("click", function () { box.remove(); });
    box.appendChild(title);
    box.appendChild(body);
    box.appendChild(close);
    bar.insertBefore(box, bar.firstChild);
    while (bar.children.length > 3) bar.removeChild(bar.lastChild);
  }

  function systemNotification(notice) {
    if (!("Notification" in window) || Notification.permission !== "granted") return;
    var options = { body: notice.body, tag: notice.key, data: { url: window.location.href } };
    if (registration && registration.showNotification) {
      registration.showNotification(notice.title, options).catch(function () {});
      return;
    }
    try { new Notification(notice.title, options); } catch (e) { /* phones need the service worker */ }
  }

  function alertFor(notice) {
    banner(notice);
    systemNotification(notice);
    if (navigator.vibrate) {
      try { navigator.vibrate([200, 100, 200]); } catch (e) { /* not allowed yet */ }
    }
  }

  function dropStale(notices) {
    // A banner goes once its moment is over (the pick made, the result confirmed, the next round).
    var keys = notices.map(function (n) { return n.key; });
    var bar = document.getElementById("t-notice-bar");
    if (!bar) return;
    Array.prototype.slice.call(bar.children).forEach(function (box) {
      if (keys.indexOf(box.dataset.key) < 0) box.remove();
    });
  }

  function check() {
    var seen = seenKeys();
    var notices = current();
    dropStale(notices);
    var fresh = notices.filter(function (n) { return seen.indexOf(n.key) < 0; });
    // Most urgent last so that it ends up on top of the banners.
    for (var i = fresh.length - 1; i >= 0; i--) alertFor(fresh[i]);
    if (fresh.length) remember(seen.concat(fresh.map(function (n) { return n.key; })));
  }

  var ready = null;

  function registerWorker() {
    var live = document.getElementById("t-notices");
    var url = live && live.dataset.worker;
    if (!url || !navigator.serviceWorker) return null;
    if (!ready) {
      ready = navigator.serviceWorker.register(url).then(function (r) {
        registration = r;
        return navigator.serviceWorker.ready;  // subscribing needs an active worker
      });
      ready.catch(function () {});
    }
    return ready;
  }

  // ---- Web Push ------------------------------------------------------------------------------
  var offKey = "t-push-off:" + window.location.pathname;

  function pushBox() { return document.getElementById("t-push"); }

  function keyBytes(text) {
    var b64 = text.replace(/-/g, "+").replace(/_/g, "/");
    b64 += "====".slice(b64.length % 4 || 4);
    var raw = window.atob(b64), out = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
    return out;
  }

  function sameKey(sub, key) {
    var have = sub.options && sub.options.applicationServerKey;
    if (!have) return true;  // the browser does not say: keep it
    have = new Uint8Array(have);
    if (have.length !== key.length) return false;
    for (var i = 0; i < key.length; i++) if (have[i] !== key[i]) return false;
    return true;
  }

  function pushState(text, on) {
    var box = pushBox();
    if (!box) return;
    document.getElementById("t-push-state").textContent = text;
    document.getElementById("t-push-on").hidden = on !== false;
    document.getElementById("t-push-off").hidden = on !== true;
  }

  function post(url, fields) {
    var box = pushBox();
    var token = box.querySelector("[name=csrfmiddlewaretoken]").value;
    var body = new URLSearchParams(fields);
    return fetch(url, {
      method: "POST", body: body, credentials: "same-origin", headers: { "X-CSRFToken": token }
    }).then(function (response) {
      return response.json().catch(function () { return {}; }).then(function (data) {
        if (!response.ok) throw new Error(data.error || ("the server answered " + response.status));
        return data;
      });
    });
  }

  function subscribe(reg) {
    var box = pushBox();
    var key = keyBytes(box.dataset.key);
    var manager = reg.pushManager;
    return manager.getSubscription().then(function (sub) {
      if (sub && !sameKey(sub, key)) {  // made for another key of the site: a new one
        return sub.unsubscribe().then(function () { return null; });
      }
      return sub;
    }).then(function (sub) {
      return sub || manager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
    }).then(function (sub) {
      var data = sub.toJSON();
      return post(box.dataset.subscribe, {
        endpoint: data.endpoint, p256dh: data.keys.p256dh, auth: data.keys.auth
      });
    });
  }

  function pushOn() {
    var box = pushBox();
    var waiting = registerWorker();
    if (!box || !waiting) return;
    if (!("PushManager" in window)) {
      pushState("This browser cannot get alerts while the page is closed; this page alerts while it is open.");
      return;
    }
    try { window.localStorage.removeItem(offKey); } catch (e) { /* private mode */ }
    pushState("Turning on alerts for a locked phone…");
    waiting.then(subscribe).then(function () {
      pushState("Alerts reach this phone even when it is locked or this page is closed.", true);
    }).catch(function (e) {
      pushState("This browser could not turn on alerts for a locked phone (" + (e && e.message || e) +
        "); this page still alerts while it is open.", false);
    });
  }

  function pushOff() {
    var box = pushBox();
    var waiting = registerWorker();
    try { window.localStorage.setItem(offKey, "1"); } catch (e) { /* private mode */ }
    if (!box || !waiting) return;
    waiting.then(function (reg) { return reg.pushManager.getSubscription(); }).then(function (sub) {
      if (!sub) return null;
      return post(box.dataset.remove, { endpoint: sub.endpoint }).then(function () { return sub.unsubscribe(); });
    }).then(function () {
      pushState("Alerts on this phone are off while this page is closed.", false);
    }).catch(function (e) {
      pushState("Could not turn alerts off (" + (e && e.message || e) + ").", true);
    });
  }

  function setupPush() {
    var box = pushBox();
    if (!box) return;
    document.getElementById("t-push-on").addEventListener("click", pushOn);
    document.getElementById("t-push-off").addEventListener("click", pushOff);
  }

  var pushAsked = false;

  function pushAfterPermission() {
    // Alerts allowed: subscribe (or tell the server again, which is harmless), unless turned off here.
    if (!pushBox() || pushAsked) return;
    pushAsked = true;
    var off = false;
    try { off = window.localStorage.getItem(offKey) === "1"; } catch (e) { /* private mode */ }
    if (off) pushState("Alerts on this phone are off while this page is closed.", false);
    else pushOn();
  }

  function setupButton() {
    var button = document.getElementById("t-alerts-on");
    var note = document.getElementById("t-alerts-note");
    if (!button || !("Notification" in window)) return;
    function show() {
      var state = Notification.permission;
      button.hidden = state !== "default";
      var what = document.getElementById("t-alerts-what");
      if (what) what.hidden = button.hidden;
      if (note) {
        note.hidden = state === "default";
        note.textContent = state === "granted"
          ? "Alerts are on for this device."
          : "Alerts are blocked in this browser's settings; this page still shows them.";
      }
      if (state === "granted") {
        registerWorker();
        pushAfterPermission();
      }
    }
    button.addEventListener("click", function () {
      var asked = Notification.requestPermission(show);
      if (asked && asked.then) asked.then(show);
    });
    show();
  }

  document.addEventListener("t:refreshed", check);
  document.addEventListener("DOMContentLoaded", function () {
    setupPush();
    setupButton();
    check();
  });
})();
