/* The game page: connection state, the POST fallback, and keeping focus and open panels across the
   live updates that arrive over the WebSocket (htmx ws extension, out-of-band swaps). */
(function () {
  "use strict";

  var socketOpen = false;
  var openDetails = [];
  var hadFocus = null;
  var logAtBottom = true;
  var MAX_LOG_LINES = 300;

  // 4xx answers of the POST fallback carry an error fragment: swap it too.
  if (window.htmx) {
    htmx.config.responseHandling = [
      { code: "204", swap: false },
      { code: "[23]..", swap: true },
      { code: "4..", swap: true, error: false },
      { code: "...", swap: false, error: true }
    ];
  }

  function setState(text, state) {
    var el = document.getElementById("ws-state");
    if (el) {
      el.textContent = text;
      el.dataset.state = state;
    }
  }

  document.addEventListener("htmx:wsConnecting", function () { setState("Connecting…", "connecting"); });
  document.addEventListener("htmx:wsOpen", function () { socketOpen = true; setState("Live", "open"); });
  var RETRIED_BY_HTMX = [1006, 1011, 1012, 1013];
  var ownRetries = 0;
  document.addEventListener("htmx:wsClose", function (evt) {
    socketOpen = false;
    var detail = evt.detail || {};
    var code = detail.event ? detail.event.code : 0;
    if (code === 4404) setState("This game no longer exists", "closed");
    else if (code === 4403) setState("Not connected: the seat link is not valid", "closed");
    else if (code === 4029) setState("Disconnected: too many messages. Reload the page.", "closed");
    else if (RETRIED_BY_HTMX.indexOf(code) >= 0) setState("Reconnecting…", "closed");
    else if (ownRetries < 5 && detail.socketWrapper) {
      // A normal close (a server restart, a proxy): htmx does not retry those; we do, a few times.
      ownRetries += 1;
      setState("Reconnecting…", "closed");
      setTimeout(function () { detail.socketWrapper.reconnect(); }, 1500 * ownRetries);
    } else {
      setState("Not live: your choices are still sent, reload for live updates", "closed");
    }
  });
  document.addEventListener("htmx:wsOpen", function () { ownRetries = 0; });

  // No open socket: send the same choice as an htmx POST (the same service on the server).
  document.addEventListener("htmx:wsConfigSend", function (evt) {
    if (socketOpen) return;
    var form = evt.target && evt.target.closest ? evt.target.closest("form") : null;
    if (!form) return;
    evt.preventDefault();
    if (evt.detail && evt.detail.triggeringEvent) evt.detail.triggeringEvent.preventDefault();
    htmx.ajax("POST", form.getAttribute("action"), { source: form, swap: "none" });
  });

  function beforeUpdate() {
    openDetails = Array.prototype.map.call(document.querySelectorAll("details[open][id]"), function (d) {
      return d.id;
    });
    var active = document.activeElement;
    hadFocus = active && active !== document.body ? active : null;
    var log = document.getElementById("log-lines");
    logAtBottom = !log || log.scrollHeight - log.scrollTop - log.clientHeight < 24;
  }

  function afterUpdate() {
    openDetails.forEach(function (id) {
      var d = document.getElementById(id);
      if (d) d.open = true;
    });
    // The element that had the focus was replaced: put the focus somewhere sensible nearby.
    if (hadFocus && !document.body.contains(hadFocus)) {
      var target = document.querySelector("#decision .options button, #decision .options input, #decision h2");
      if (target) target.focus({ preventScroll: true });
    }
    var log = document.getElementById("log-lines");
    if (log) {
      while (log.children.length > MAX_LOG_LINES) log.removeChild(log.firstElementChild);
      if (logAtBottom) log.scrollTop = log.scrollHeight;
    }
  }

  document.addEventListener("htmx:wsBeforeMessage", beforeUpdate);
  document.addEventListener("htmx:wsAfterMessage", afterUpdate);
  document.addEventListener("htmx:beforeRequest", beforeUpdate);
  document.addEventListener("htmx:afterSettle", afterUpdate);

  document.addEventListener("DOMContentLoaded", function () {
    var log = document.getElementById("log-lines");
    if (log) log.scrollTop = log.scrollHeight;
  });

  // Turn timer: #play-status (data-deadline: the server's deadline) holds a .timer with the seconds
  // that were left when the server rendered it (data-remaining, computed from that deadline); count
  // down locally from when it arrived, so the device's clock does not matter. Every update swaps in
  // a new #play-status and restarts the count.
  var timerEl = null;
  var timerEnd = 0;
  function tick() {
    var status = document.getElementById("play-status");
    var box = status ? status.querySelector(".timer") : null;
    var left = box ? box.querySelector(".timer-left") : null;
    if (!left) { timerEl = null; return; }
    if (box !== timerEl) {
      timerEl = box;
      var remaining = parseFloat(box.dataset.remaining || "");
      timerEnd = isNaN(remaining) ? 0 : Date.now() + remaining * 1000;
    }
    if (!timerEnd) return;
    var secs = Math.max(0, Math.ceil((timerEnd - Date.now()) / 1000));
    var text = secs >= 60 ? Math.floor(secs / 60) + ":" + String(secs % 60).padStart(2, "0") : secs + "s";
    if (left.textContent !== text) left.textContent = text;
    box.classList.toggle("low", secs <= 10);
  }
  setInterval(tick, 250);
  document.addEventListener("htmx:wsAfterMessage", tick);
  document.addEventListener("htmx:afterSettle", tick);

  // The table page: its socket (?watch=table) pings on every change; ask for the seats panel again
  // (it answers 204 when nothing it shows changed). Polling stays as the fallback.
  document.addEventListener("htmx:wsAfterMessage", function () {
    var seats = document.getElementById("seats");
    if (seats && document.getElementById("table-ping") && window.htmx) htmx.trigger(seats, "refresh");
  });
})();
