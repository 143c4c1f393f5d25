/* Tournament pages: the live countdown (from the deadline the server sent, corrected for this
   device's clock) and live updates. A WebSocket on ws/events/<id>/ says when the event changed (and
   carries the clock); without it the page polls live.json. On a change the page is fetched once and
   every element with [data-live] and an id is replaced by its new version, unless the user is
   typing in it (it catches up when they leave it). */
(function () {
  "use strict";

  var offset = 0; // server time - this device's time, in ms
  var version = null;
  var socket = null;
  var socketOpen = false;
  var socketLive = true; // false while the server says its pings cannot get through (Redis down)
  var pollTimer = null;
  var POLL_MS = 5000;
  var QUIET_POLL_MS = 30000;

  function pad(n) { return n < 10 ? "0" + n : "" + n; }

  function fmt(seconds) {
    var s = Math.max(0, Math.ceil(seconds));
    var h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
    return h ? h + ":" + pad(m) + ":" + pad(r) : m + ":" + pad(r);
  }

  function setOffset(serverNow) {
    var t = Date.parse(serverNow || "");
    if (!isNaN(t)) offset = t - Date.now();
  }

  function secondsLeft(el) {
    var status = el.dataset.status;
    if (status === "called") return 0;
    if (status === "running" && el.dataset.deadline) {
      return (Date.parse(el.dataset.deadline) - (Date.now() + offset)) / 1000;
    }
    return parseFloat(el.dataset.remaining || "0");
  }

  var STATUS_TEXT = { ready: "not started", paused: "paused", called: "time is called", running: "" };

  function tick() {
    var clocks = document.querySelectorAll("[data-clock]");
    for (var i = 0; i < clocks.length; i++) {
      var el = clocks[i];
      var left = secondsLeft(el);
      var time = el.querySelector(".t-clock-time");
      if (time) time.textContent = fmt(left);
      var warnings = (el.dataset.warnings || "").split(",").map(parseFloat).filter(function (w) { return w > 0; });
      var first = warnings.length ? Math.max.apply(null, warnings) : 0;
      el.classList.toggle("t-warn", el.dataset.status === "running" && first > 0 && left <= first);
      el.classList.toggle("t-over", el.dataset.status === "running" && left <= 0);
    }
  }

  function minutesText(seconds) {
    var s = Math.round(seconds);
    if (s % 60) return s + " seconds";
    return s / 60 + (s === 60 ? " minute" : " minutes");
  }

  function showWarning(state) {
    // The alert of a warning that has fired, as the server renders it in #t-warned; updated from
    // the clock state at once, before the page's live regions are fetched again.
    var box = document.getElementById("t-warned");
    if (!box) return;
    var warned = parseFloat(state.warned);
    if (!(warned > 0) || (state.status !== "running" && state.status !== "paused")) {
      if (box.firstChild) box.textContent = "";
      return;
    }
    var projector = document.body.classList.contains("t-projector");
    var text = "Less than " + minutesText(warned) + " left" +
      (!projector && state.round ? " in " + state.round.toLowerCase() : "") + ".";
    var shown = box.querySelector("strong");
    if (shown && shown.textContent === text) return;
    var alert = document.createElement("div");
    alert.className = projector ? "t-warned p-warned" : "t-warned";
    alert.setAttribute("role", "alert");
    var strong = document.createElement("strong");
    strong.textContent = text;
    alert.appendChild(strong);
    box.textContent = "";
    box.appendChild(alert);
  }

  function applyClock(state) {
    if (!state || state.status === "none") return;
    showWarning(state);
    setOffset(state.now);
    var clocks = document.querySelectorAll(".t-clock[data-clock]");
    for (var i = 0; i < clocks.length; i++) {
      var el = clocks[i];
      el.dataset.status = state.status;
      el.dataset.deadline = state.deadline || "";
      el.dataset.remaining = state.remaining;
      el.dataset.warnings = (state.warnings || []).join(",");
      el.dataset.warned = state.warned || "";
      var status = el.querySelector(".t-clock-status");
      if (status) status.textContent = STATUS_TEXT[state.status] || "";
      var label = el.querySelector(".t-clock-label");
      if (label && state.round) label.textContent = state.round;
    }
    tick();
  }

  function typingIn(el) {
    if (el.dataset.dirty) return true; // something typed in it and not sent yet
    var active = document.activeElement;
    if (!active || !el.contains(active)) return false;
    return /^(INPUT|SELECT|TEXTAREA)$/.test(active.tagName);
  }

  var refreshing = false;
  var again = false;

  function refresh() {
    // One request for the whole page; each live region is replaced by its new version.
    if (refreshing) { again = true; return; }
    refreshing = true;
    fetch(window.location.href, { headers: { "X-Live-Refresh": "1" }, cache: "no-store", credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) {
        if (!html) return;
        var doc = new DOMParser().parseFromString(html, "text/html");
        var regions = document.querySelectorAll("[data-live][id]");
        for (var i = 0; i < regions.length; i++) {
          var el = regions[i];
          var fresh = doc.getElementById(el.id);
          if (!fresh) continue;
          if (typingIn(el)) { el.dataset.stale = "1"; continue; }
          var open = Array.prototype.map.call(el.querySelectorAll("details[open][id]"), function (d) { return d.id; });
          var node = document.importNode(fresh, true);
          el.replaceWith(node);
          open.forEach(function (id) { var d = document.getElementById(id); if (d) d.open = true; });
          if (window.htmx) htmx.process(node);
        }
        document.dispatchEvent(new CustomEvent("t:refreshed"));
        var clock = doc.querySelector(".t-clock[data-clock]");
        if (clock) {
          var label = clock.querySelector(".t-clock-label");
          applyClock({
            status: clock.dataset.status, deadline: clock.dataset.deadline, remaining: clock.dataset.remaining,
            warnings: (clock.dataset.warnings || "").split(",").filter(Boolean), now: clock.dataset.now,
            warned: clock.dataset.warned, round: label ? label.textContent : ""
          });
        }
      })
      .catch(function () {})
      .then(function () {
        refreshing = false;
        if (again) { again = false; refresh(); }
      });
  }

  function changed(newVersion, clock) {
    applyClock(clock);
    if (newVersion != null && version != null && newVersion > version) {
      version = newVersion;
      refresh();
    } else if (newVersion != null && version == null) {
      version = newVersion;
    }
  }

  function poll(live) {
    clearTimeout(pollTimer);
    var url = live.dataset.poll;
    fetch(url, { headers: { Accept: "application/json" }, cache: "no-store" })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (data) { if (data) changed(data.version, data.clock); })
      .catch(function () {})
      .then(function () {
        pollTimer = setTimeout(function () { poll(live); }, socketOpen && socketLive ? QUIET_POLL_MS : POLL_MS);
      });
  }

  function connect(live, attempt) {
    if (!window.WebSocket || !live.dataset.ws) return;
    var scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
    try {
      socket = new WebSocket(scheme + window.location.host + live.dataset.ws);
    } catch (e) { return; }
    socket.onopen = function () { socketOpen = true; socketLive = true; attempt = 0; };
    socket.onmessage = function (evt) {
      var data;
      try { data = JSON.parse(evt.data); } catch (e) { return; }
      if (data && (data.type === "changed" || data.type === "state")) changed(data.version, data.clock);
      if (data && data.type === "live") {
        var wasLive = socketLive;
        socketLive = data.state === "live";
        // Reconnecting: poll at the short interval from now on, as without a socket.
        if (wasLive && !socketLive) { clearTimeout(pollTimer); pollTimer = setTimeout(function () { poll(live); }, POLL_MS); }
      }
    };
    socket.onclose = function (evt) {
      socketOpen = false;
      if (evt.code === 4404 || attempt >= 8) return; // polling carries on
      setTimeout(function () { connect(live, attempt + 1); }, Math.min(30000, 1000 * Math.pow(2, attempt)));
    };
  }

  // Irreversible actions (finish the event, drop a player, take back a pairing) ask first: the
  // question is on the form, or on the button that sent it (one form serves a row of buttons).
  document.addEventListener("submit", function (evt) {
    var form = evt.target;
    var button = evt.submitter;
    var question = (button && button.getAttribute && button.getAttribute("data-confirm")) ||
      (form && form.getAttribute && form.getAttribute("data-confirm"));
    if (question && !window.confirm(question)) {
      evt.preventDefault();
      evt.stopImmediatePropagation();
    }
  }, true);

  document.addEventListener("input", function (evt) {
    var region = evt.target && evt.target.closest ? evt.target.closest("[data-live][id]") : null;
    if (region && evt.target.form && evt.target.form.method.toLowerCase() === "post") region.dataset.dirty = "1";
  });

  document.addEventListener("focusout", function () {
    // A region skipped while someone typed in it catches up once they leave it.
    setTimeout(function () {
      var stale = document.querySelectorAll("[data-live][data-stale]");
      if (stale.length && !Array.prototype.some.call(stale, typingIn)) {
        Array.prototype.forEach.call(stale, function (el) { delete el.dataset.stale; });
        refresh();
      }
    }, 50);
  });

  document.addEventListener("DOMContentLoaded", function () {
    var first = document.querySelector("[data-clock][data-now]");
    if (first) setOffset(first.dataset.now);
    tick();
    setInterval(tick, 250);
    var live = document.getElementById("t-live");
    if (!live) return;
    version = parseInt(live.dataset.version || "0", 10);
    connect(live, 0);
    pollTimer = setTimeout(function () { poll(live); }, POLL_MS);
  });
})();
