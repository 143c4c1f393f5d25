/* A player's page (tournaments/me.html) tells them what just happened: their table is paired, their
   pick is up, the clock runs low, time is called, a result waits for their confirmation. The server
   renders the current notices as JSON in #t-notices-data (a live region, refreshed with the page
   by tournaments.js); each has a key naming its moment, and this device alerts once per key: a
   banner on the page and, on a phone that allowed it, a system notification and a vibration. */
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

  function registerWorker() {
    var live = document.getElementById("t-notices");
    var url = live && live.dataset.worker;
    if (!url || !navigator.serviceWorker || registration) return;
    navigator.serviceWorker.register(url).then(function (r) { registration = r; }).catch(function () {});
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
      if (state === "granted") registerWorker();
    }
    button.addEventListener("click", function () {
      var asked = Notification.requestPermission(show);
      if (asked && asked.then) asked.then(show);
    });
    show();
  }

  document.addEventListener("t:refreshed", check);
  document.addEventListener("DOMContentLoaded", function () {
    setupButton();
    check();
  });
})();
