/* The game page: connection state, the POST fallback, and keeping focus, ticked boxes, open panels
   and the log quiet across the live updates that arrive over the WebSocket (htmx ws extension,
   out-of-band swaps). */
(function () {
  "use strict";

  var socketOpen = false;
  var openDetails = [];
  var hadFocus = null;       // the focused element before an update
  var focusWas = null;       // how to find its equivalent in the new HTML (see describe)
  var shownBefore = "";      // which decision the page showed before an update (see decisionKey)
  var ticked = [];           // the boxes ticked in a multi-select decision before an update
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

  // The socket htmx made last: a close event of an older one (already replaced) says nothing about
  // the connection now and must not start another reconnect. One socket per page: a new one closes
  // the one before it if that is still open or opening, else both would apply every update.
  var currentSocket = null;
  var wrapper = null;  // htmx's socket wrapper (its reconnect), known from the first open or close
  if (window.htmx) {
    htmx.createWebSocket = function (url) {
      var before = currentSocket;
      if (before && (before.readyState === WebSocket.OPEN || before.readyState === WebSocket.CONNECTING)) {
        before.close();
      }
      var socket = new WebSocket(url, []);
      socket.binaryType = htmx.config.wsBinaryType;
      currentSocket = socket;
      paceQueue.length = 0;  // a new socket starts with everything; what the old one had is stale
      paceMessages(socket);
      return socket;
    };
    // htmx retries an abnormal close (a dropped network, a crashed server) after a random delay that
    // doubles up to 64 s; a player waiting for the game to come back should not wait that long.
    // Half to all of 1, 2, 4, 8 s, then of 10 s: still spread out when a restart drops everyone.
    htmx.config.wsReconnectDelay = function (retryCount) {
      var cap = Math.min(10000, 1000 * Math.pow(2, Math.min(retryCount, 4)));
      return cap / 2 + Math.random() * cap / 2;
    };
  }

  // Moves you can follow (issue 26): each message shows one state of the game, and another
  // player's move stays on the screen a moment (data-pace-ms on .play, default 650 ms: its
  // animations) before the next message is shown. Messages that arrive meanwhile wait their turn,
  // in order; more than a few waiting are shown quickly, so the page is never far behind. No wait
  // after a message that asks this page's player something (their own moves show at once), nor
  // while the page is hidden.
  var paceQueue = [];
  var pacing = false;
  function paceMs() {
    var p = document.querySelector(".play[data-pace-ms]");
    var ms = p ? parseInt(p.dataset.paceMs, 10) : NaN;
    return isNaN(ms) ? 650 : Math.max(0, ms);
  }
  function statusOf(text) {
    var m = /<div id="play-status"[^>]*>/.exec(text || "");
    if (!m) return null;
    var version = /data-version="([^"]*)"/.exec(m[0]);
    var decision = /data-decision="([^"]*)"/.exec(m[0]);
    return { version: version ? version[1] : "", mine: !!(decision && decision[1]) };
  }
  function holdAfter(text, versionBefore) {
    var st = statusOf(text);
    if (!st || st.mine || st.version === versionBefore || document.hidden) return 0;
    return paceQueue.length > 3 ? 120 : paceMs();
  }
  function pump() {
    if (pacing || !paceQueue.length) return;
    var next = paceQueue.shift();
    var status = document.getElementById("play-status");
    var versionBefore = status ? status.dataset.version : "";
    try { next.handler.call(next.socket, next.event); } finally {
      var hold = holdAfter(next.event.data, versionBefore);
      if (hold) {
        pacing = true;
        setTimeout(function () { pacing = false; pump(); }, hold);
      } else {
        pump();
      }
    }
  }
  function paceMessages(socket) {
    var add = socket.addEventListener.bind(socket);
    socket.addEventListener = function (type, handler, options) {
      if (type !== "message") return add(type, handler, options);
      return add(type, function (event) {
        paceQueue.push({ handler: handler, event: event, socket: socket });
        pump();
      }, options);
    };
  }

  var OFFLINE = "Offline: waiting for the network…";
  document.addEventListener("htmx:wsConnecting", function () {
    if (navigator.onLine !== false) setState("Connecting…", "connecting");
  });
  document.addEventListener("htmx:wsOpen", function (evt) {
    wrapper = (evt.detail && evt.detail.socketWrapper) || wrapper;
    socketOpen = true;
    setState("Live", "open");
  });
  var RETRIED_BY_HTMX = [1006, 1011, 1012, 1013];
  var ownRetries = 0;
  document.addEventListener("htmx:wsClose", function (evt) {
    var detail = evt.detail || {};
    if (detail.event && currentSocket && detail.event.target && detail.event.target !== currentSocket) return;
    wrapper = detail.socketWrapper || wrapper;
    socketOpen = false;
    var code = detail.event ? detail.event.code : 0;
    if (navigator.onLine === false) setState(OFFLINE, "closed");  // the "online" event reconnects
    else if (code === 4404) setState("This game no longer exists", "closed");
    else if (code === 4403) setState("Not connected: the seat link is not valid", "closed");
    else if (code === 4029) setState("Disconnected: too many messages. Reload the page.", "closed");
    else if (code === 4503) setState("Not live: too many connections are open. Reload later.", "closed");
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

  // The device lost its network: whatever the socket says, nothing gets through it now, and it may
  // never hear that (a phone's radio off, a new address on another network). Close it, say so, and
  // start a fresh one the moment the network is back rather than after htmx's next retry.
  window.addEventListener("offline", function () {
    // Its close event may come only once the close handshake times out: not live from now on.
    socketOpen = false;
    setState(OFFLINE, "closed");
    if (currentSocket && currentSocket.readyState <= WebSocket.OPEN) currentSocket.close();
  });
  window.addEventListener("online", function () {
    if (!wrapper) return;  // never connected yet: htmx is still trying
    if (currentSocket && currentSocket.readyState === WebSocket.CONNECTING) return;
    setState("Reconnecting…", "closed");
    ownRetries = 0;
    wrapper.reconnect();
  });

  // Live updates that do not get through. The server says so in #live-state: "reconnecting" while
  // its pings are lost (Redis down: the server then keeps the page up to date from the database every
  // second or so), "live" again once they arrive. And a page that has heard nothing for a while asks
  // ({"type": "check"}): the server sends what changed and answers in any case; a socket that
  // does not answer in time is dead without knowing it, and a new one is opened.
  var lastHeard = Date.now();
  var askedAt = 0;
  var ANSWER_MS = 10000;
  function quietMs() {
    var play = document.querySelector(".play[data-quiet]");
    var seconds = play ? parseFloat(play.dataset.quiet) : NaN;
    return (seconds > 0 ? seconds : 30) * 1000;
  }
  function liveState() {
    var el = document.getElementById("live-state");
    return el ? el.dataset.state : "live";
  }
  function heard() {
    lastHeard = Date.now();
    askedAt = 0;
    var shown = document.getElementById("ws-state");
    if (!socketOpen || !shown) return;
    if (liveState() === "reconnecting") {
      setState("Reconnecting live updates…", "reconnecting");
    } else if (shown.dataset.state === "reconnecting") {
      setState("Live", "open");
    }
  }
  document.addEventListener("htmx:wsOpen", function () {
    // A new socket starts live: the server says otherwise if its pings cannot get through.
    var el = document.getElementById("live-state");
    if (el) el.dataset.state = "live";
    lastHeard = Date.now();
    askedAt = 0;
  });
  document.addEventListener("htmx:wsAfterMessage", heard);
  setInterval(function () {
    if (!socketLive()) return;
    var now = Date.now();
    if (askedAt && now - askedAt > ANSWER_MS) {
      askedAt = 0;
      socketOpen = false;
      setState("Reconnecting…", "closed");
      if (wrapper) wrapper.reconnect();
      return;
    }
    if (!askedAt && now - lastHeard > quietMs()) {
      askedAt = now;
      try { currentSocket.send(JSON.stringify({ type: "check" })); } catch (e) { askedAt = 0; }
    }
  }, 1000);

  // No open socket: send the same choice as an htmx POST (the same service on the server).
  function socketLive() {
    return socketOpen && navigator.onLine !== false &&
      !!currentSocket && currentSocket.readyState === WebSocket.OPEN;
  }
  document.addEventListener("htmx:wsConfigSend", function (evt) {
    if (socketLive()) return;
    var form = evt.target && evt.target.closest ? evt.target.closest("form") : null;
    if (!form) return;
    evt.preventDefault();
    if (evt.detail && evt.detail.triggeringEvent) evt.detail.triggeringEvent.preventDefault();
    htmx.ajax("POST", form.getAttribute("action"), { source: form, swap: "none" });
  });

  // The POST fallback could not reach the server either (offline, the server down): htmx only logs
  // that, and the player would wait for an answer that never comes. Say it was not sent; the message
  // goes once the page is live again and shows the game as it is then.
  var NOT_SENT = "not_sent";
  function showNotSent() {
    var box = document.getElementById("play-error");
    if (!box) return;
    var line = document.createElement("p");
    line.textContent = "Your choice was not sent: there is no connection. Choose again once the page says Live.";
    box.replaceChildren(line);
    box.dataset.code = NOT_SENT;
  }
  document.addEventListener("htmx:sendError", showNotSent);
  document.addEventListener("htmx:wsOpen", function () {
    var box = document.getElementById("play-error");
    if (box && box.dataset.code === NOT_SENT) {
      box.replaceChildren();
      box.dataset.code = "";
    }
  });

  // Which decision the page shows: the same version and decision id means the same question, so the
  // same buttons and boxes; anything else is a new question.
  function decisionKey() {
    var status = document.getElementById("play-status");
    return status ? (status.dataset.version || "") + "/" + (status.dataset.decision || "") : "";
  }

  // How to find an element again once the server's HTML replaced it with a new copy: by its id, else
  // by the nearest container with an id plus its tag, name and value (an option button, a checkbox),
  // and its text when it has neither (a <summary>, the Confirm button).
  function describe(el) {
    if (el.id) return { id: el.id };
    var scope = el.parentElement ? el.parentElement.closest("[id]") : null;
    return {
      scope: scope ? scope.id : null,
      tag: el.tagName,
      name: el.getAttribute("name"),
      value: el.getAttribute("value"),
      text: (el.textContent || "").trim()
    };
  }

  function findAgain(d) {
    if (d.id) return document.getElementById(d.id);
    var scope = d.scope ? document.getElementById(d.scope) : document;
    if (!scope) return null;
    var same = Array.prototype.filter.call(scope.getElementsByTagName(d.tag), function (c) {
      return c.getAttribute("name") === d.name && c.getAttribute("value") === d.value;
    });
    if (d.name !== null || d.value !== null) return same[0] || null;
    // No name or value: the same text, else the only one of its kind there (a minion's summary
    // whose power changed is still that minion's summary).
    var byText = same.filter(function (c) { return (c.textContent || "").trim() === d.text; });
    return byText[0] || (same.length === 1 ? same[0] : null);
  }

  function beforeUpdate() {
    openDetails = Array.prototype.map.call(document.querySelectorAll("details[open][id]"), function (d) {
      return d.id;
    });
    var active = document.activeElement;
    hadFocus = active && active !== document.body ? active : null;
    focusWas = hadFocus ? describe(hadFocus) : null;
    if (focusWas) focusWas.inDecision = !!hadFocus.closest("#decision");
    shownBefore = decisionKey();
    ticked = Array.prototype.map.call(document.querySelectorAll("#decision input[type=checkbox]:checked"), function (c) {
      return c.value;
    });
    var log = document.getElementById("log-lines");
    logAtBottom = !log || log.scrollHeight - log.scrollTop - log.clientHeight < 24;
  }

  function afterUpdate() {
    openDetails.forEach(function (id) {
      var d = document.getElementById(id);
      if (d) d.open = true;
    });
    var sameDecision = decisionKey() === shownBefore;
    // The same question drawn again (a reconnect, a refresh): the boxes the player ticked stay ticked.
    if (sameDecision && ticked.length) {
      document.querySelectorAll("#decision input[type=checkbox]").forEach(function (c) {
        if (ticked.indexOf(c.value) >= 0) c.checked = true;
      });
    }
    // The element that had the focus was replaced. Put the focus on its new copy when there is one,
    // so that a keyboard or screen reader user keeps their place; but not on a button of a NEW
    // question that merely has the same value (an "End turn" pressed twice by a repeating key):
    // then, or when nothing equivalent is left, on the decision's heading, which says what changed
    // and from which Tab reaches the first option.
    if (hadFocus && !document.body.contains(hadFocus)) {
      var target = null;
      if (focusWas && (focusWas.id || !focusWas.inDecision || sameDecision)) target = findAgain(focusWas);
      if (!target) target = document.getElementById("decision-title");
      if (target) target.focus({ preventScroll: true });
    }
    hadFocus = null;
    var log = document.getElementById("log-lines");
    if (log) {
      while (log.children.length > MAX_LOG_LINES) log.removeChild(log.firstElementChild);
      if (logAtBottom) log.scrollTop = log.scrollHeight;
    }
  }

  // The whole log arrives on every (re)connect and after an undo, only the new lines otherwise. The
  // log is a live region (role=log): swapping in the whole of it would make a screen reader read
  // every line again. So both kinds are merged by line number: keep the lines the page already
  // shows, remove those that differ from the server's (an undo took the log back; removals are not
  // read, aria-relevant="additions"), and add only the lines the page does not have.
  function lineOf(li) { return { n: Number(li.dataset.n), text: li.textContent }; }
  document.addEventListener("htmx:oobBeforeSwap", function (evt) {
    var detail = evt.detail || {};
    var log = detail.target;
    if (!log || log.id !== "log-lines" || !detail.fragment || detail.fragment.id !== "log-lines") return;
    detail.shouldSwap = false;
    var shown = Array.prototype.slice.call(log.children);
    var incoming = Array.prototype.slice.call(detail.fragment.children);
    var j = 0;
    // Lines older than the oldest one shown: the page has let them go; leave them out.
    if (shown.length) while (j < incoming.length && lineOf(incoming[j]).n < lineOf(shown[0]).n) j++;
    var firstNew = j < incoming.length ? lineOf(incoming[j]).n : Infinity;
    var i = 0;
    while (i < shown.length && lineOf(shown[i]).n < firstNew) i++;
    while (i < shown.length && j < incoming.length) {
      var a = lineOf(shown[i]), b = lineOf(incoming[j]);
      if (a.n !== b.n || a.text !== b.text) break;
      i++; j++;
    }
    for (var k = shown.length - 1; k >= i; k--) log.removeChild(shown[k]);
    for (; j < incoming.length; j++) log.appendChild(incoming[j]);
  });

  document.addEventListener("htmx:wsBeforeMessage", beforeUpdate);
  document.addEventListener("htmx:wsAfterMessage", afterUpdate);
  document.addEventListener("htmx:beforeRequest", beforeUpdate);
  document.addEventListener("htmx:afterSettle", afterUpdate);

  document.addEventListener("DOMContentLoaded", function () {
    var log = document.getElementById("log-lines");
    if (!log) return;
    log.scrollTop = log.scrollHeight;
    // On a wide screen the log takes the height the players panel leaves in the window: a smaller
    // window or an opened discard pile shrinks it. A reader who was following the newest lines keeps
    // them in view; one who scrolled back stays where they are.
    if (!window.ResizeObserver) return;
    var following = true;
    log.addEventListener("scroll", function () {
      following = log.scrollHeight - log.scrollTop - log.clientHeight < 24;
    });
    new ResizeObserver(function () {
      if (following) log.scrollTop = log.scrollHeight;
    }).observe(log);
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
  // (it answers 204 when nothing it shows changed). Polling stays as the fallback. The start of a
  // game pings twice (the last claim, then the start): once the panel's answer sends this page to
  // the game, a second answer would start the same navigation again and abort the first.
  var leaving = false;
  window.addEventListener("beforeunload", function () { leaving = true; });
  document.addEventListener("htmx:wsAfterMessage", function () {
    var seats = document.getElementById("seats");
    if (leaving || !seats || !document.getElementById("table-ping") || !window.htmx) return;
    htmx.trigger(seats, "refresh");
  });

  // The hint button (issue 25; casual tables): it asks over the socket about this seat's open
  // decision; the answer arrives as #hint, sent to this seat's pages only. A hint is about one
  // decision: it goes as soon as the page shows another, and the button waits for the next one
  // that is this seat's (or a while, when no answer came: a lost task).
  var HINT_WAIT_MS = 15000;
  var hintAskedAt = 0;
  function showHintState() {
    var button = document.getElementById("hint-button");
    if (!button) return;
    var status = document.getElementById("play-status");
    var version = status ? status.dataset.version || "" : "";
    var decision = status ? status.dataset.decision || "" : "";
    var box = document.getElementById("hint");
    if (box && box.dataset.state && (box.dataset.version !== version ||
        (box.dataset.state === "ready" && box.dataset.decision !== decision))) {
      box.replaceChildren();
      box.dataset.state = "";
    }
    var waiting = !!box && box.dataset.state === "asked" && Date.now() - hintAskedAt < HINT_WAIT_MS;
    button.disabled = !decision || waiting;
  }
  document.addEventListener("click", function (evt) {
    var button = evt.target.closest && evt.target.closest("#hint-button");
    if (!button) return;
    var status = document.getElementById("play-status");
    var box = document.getElementById("hint");
    if (!status || !status.dataset.decision || !box) return;
    if (!socketLive()) {
      var line = document.createElement("p");
      line.textContent = "A hint needs the live connection: ask again once the page says Live.";
      box.replaceChildren(line);
      box.dataset.state = "offline";
      box.dataset.version = status.dataset.version;
      return;
    }
    hintAskedAt = Date.now();
    currentSocket.send(JSON.stringify({ type: "hint", seq: status.dataset.version, decision: status.dataset.decision }));
    setTimeout(showHintState, HINT_WAIT_MS + 50);
  });
  document.addEventListener("htmx:wsAfterMessage", showHintState);
  document.addEventListener("DOMContentLoaded", showHintState);
})();

/* Direct play (issues 13 and 26): tap or click a card in the hand, then a base (or a minion) to play
   it; the bases and minions it may go to light up, and the decision shows that card's own buttons.
   The page only ever presses a button of the decision the server sent (the server checks every
   choice anyway), so everything stays reachable by keyboard through those buttons: the full list of
   the main decision is one tap away, and opens by itself for a keyboard (the first Tab). A card the
   decision does not list does nothing, but a long press on any card (or a tap on one that cannot be
   played now) shows it at full size.
   Also: the hand drawer on a phone; moves you can follow (what changed after each message is shown
   where it happened, the last moves in a line under the status bar); the "since your last turn" and
   scoring panels, each hidden on this device once dismissed; the sound/vibration cue when it
   becomes your decision (off unless switched on on this device). */
(function () {
  "use strict";

  var selected = null;       // the id (a string) of the card picked in the hand, or null
  var selectedFor = "";      // the decision it was picked for
  var before = null;         // what the board showed before an update (see snapshot)
  var tickerTimer = null;
  var SOUND_KEY = "smashup.sound";
  var LIST_KEY = "smashup.list-open";
  var KEYBOARD_KEY = "smashup.keyboard";
  var TICKER_MS = 3200;
  var LONG_PRESS_MS = 500;

  function qsa(sel, root) { return Array.prototype.slice.call((root || document).querySelectorAll(sel)); }
  function play() { return document.querySelector(".play"); }
  function decisionId() {
    var s = document.getElementById("play-status");
    return s ? (s.dataset.version || "") + "/" + (s.dataset.decision || "") : "";
  }
  function hasCard(el, id) {
    var cards = (el.dataset.cards || el.dataset.card || "").split(" ");
    return cards.indexOf(String(id)) >= 0;
  }
  // The decision's inputs (buttons, or boxes when several may be chosen) about card `id`.
  function optionsFor(id) {
    return qsa("#decision .choice-form [name=options]").filter(function (el) { return hasCard(el, id); });
  }
  function isPhone() { return window.matchMedia("(max-width: 47.99rem)").matches; }
  function stillMotion() { return window.matchMedia("(prefers-reduced-motion: reduce)").matches; }
  function stored(storage, key) { try { return storage.getItem(key); } catch (e) { return null; } }
  function store(storage, key, value) { try { storage.setItem(key, value); } catch (e) { /* private mode */ } }

  // The sticky status bar takes two or three lines on a phone: what the browser scrolls into view (the
  // skip link's decision, a new question, a focused slot) stops below it, whatever its height
  // (play.css: scroll-padding-top reads --play-top).
  function measureTop() {
    var bar = document.querySelector(".play-top");
    if (bar) document.documentElement.style.setProperty("--play-top", bar.offsetHeight + "px");
  }
  document.addEventListener("DOMContentLoaded", function () {
    var bar = document.querySelector(".play-top");
    if (!bar) return;
    measureTop();
    if (window.ResizeObserver) new ResizeObserver(measureTop).observe(bar);
  });

  // ------------------------------------------------------------------ the full list, one tap away
  function showToggle() {
    var p = play();
    var open = !!p && p.classList.contains("list-open");
    qsa("[data-show-all]").forEach(function (b) {
      b.setAttribute("aria-expanded", open ? "true" : "false");
      if (!b.dataset.label) b.dataset.label = b.textContent;
      b.textContent = open ? "Hide the list of choices" : b.dataset.label;
    });
  }
  function setList(open) {
    var p = play();
    if (!p) return;
    p.classList.toggle("list-open", open);
    store(localStorage, LIST_KEY, open ? "1" : "0");
    showToggle();
  }
  function keyboardMode() {
    var p = play();
    if (!p || p.classList.contains("keyboard")) return;
    p.classList.add("keyboard", "list-open");
    store(sessionStorage, KEYBOARD_KEY, "1");
    showToggle();
  }
  // A Tab means a keyboard: the list opens before the focus moves, so the Tab reaches its options.
  document.addEventListener("keydown", function (evt) { if (evt.key === "Tab") keyboardMode(); }, true);

  function clearMarks() {
    qsa(".card-face.selected").forEach(function (el) { el.classList.remove("selected"); });
    qsa(".base.target, .minion.target").forEach(function (el) { el.classList.remove("target"); });
    qsa("#decision .option.lit").forEach(function (el) { el.classList.remove("lit"); });
    qsa("#decision .picked").forEach(function (el) { el.classList.remove("picked"); });
    qsa("#decision .picking").forEach(function (el) { el.classList.remove("picking"); });
  }
  function unselect() { selected = null; clearMarks(); picked(""); }
  // The drawer's bar says which card is picked (on a phone the drawer closes to show the bases).
  function picked(name) {
    var hint = document.querySelector(".hand-hint");
    if (!hint) return;
    if (name) hint.dataset.picked = name; else delete hint.dataset.picked;
  }

  function setHand(open) {
    var p = play();
    if (!p) return;
    // Closed, the drawer starts from its top again (issue 26: it kept its inner scroll). Reset
    // while the cards are still shown: the browser keeps the offset of a hidden box for its return.
    var cards = document.getElementById("hand-cards");
    if (!open && cards) cards.scrollTop = 0;
    p.classList.toggle("hand-open", open);
    var toggle = document.querySelector("[data-hand-toggle]");
    if (toggle) toggle.setAttribute("aria-expanded", open ? "true" : "false");
  }

  function press(el) {
    unselect();
    if (el.type === "checkbox") { el.checked = !el.checked; markTicked(); return; }
    // On a phone the drawer gets out of the way: what the choice brings (a question about the
    // board, the move itself) is on the page behind it.
    if (isPhone()) setHand(false);
    el.click();
  }
  function pressSlot(slot) {
    var go = qsa("#decision .choice-form [name=options]").filter(function (b) {
      return b.value === slot.dataset.option;
    })[0];
    if (go) press(go);
  }
  function markTicked() {
    qsa("#hand .card-face").forEach(function (card) {
      var box = optionsFor(card.dataset.card).filter(function (el) { return el.type === "checkbox"; })[0];
      card.classList.toggle("selected", !!(box && box.checked));
    });
  }

  function select(card) {
    var id = card.dataset.card;
    var opts = optionsFor(id);
    if (!opts.length) return;
    if (opts[0].type === "checkbox") {  // several to choose (a discard): a tap ticks the card's box
      var free = opts.filter(function (b) { return !b.checked; });
      var box = card.classList.contains("selected") ? opts.filter(function (b) { return b.checked; })[0] : free[0];
      if (box) { box.checked = !box.checked; markTicked(); }
      return;
    }
    if (selected === id) {  // a second tap on a card with one plain option plays it
      var plain = opts.filter(function (b) { return !b.dataset.base; });
      if (opts.length === 1 && plain.length === 1) { press(plain[0]); return; }
      unselect();
      return;
    }
    unselect();
    selected = id;
    selectedFor = decisionId();
    card.classList.add("selected");
    var title = card.querySelector(".card-name");
    var targets = [];
    var list = document.getElementById("all-options");
    opts.forEach(function (b) {
      b.classList.add("lit");
      var holder = b.closest(".option-group, .option-solo");
      if (holder) holder.classList.add("picked");
      if (b.dataset.base) {
        var base = document.querySelector('#bases .base[data-base="' + b.dataset.base + '"]');
        if (base) { base.classList.add("target"); targets.push(base); }
      }
    });
    if (list) list.classList.add("picking");
    var name = title ? title.textContent.trim() : "";
    var plainOnly = opts.length === 1 && !opts[0].dataset.base;
    picked(name + (targets.length ? ": tap a lit base" : plainOnly ? ": tap it again to play" : ": choose below"));
    if (targets.length && isPhone()) {
      // The drawer must not hide the bases to choose from: close it and show the first one.
      setHand(false);
      targets[0].scrollIntoView({ block: "center", behavior: stillMotion() ? "auto" : "smooth" });
    }
  }

  // ------------------------------------------------------------------ a card at full size
  var longPress = null;      // {timer, card, x, y} while a finger or button rests on a card
  var swallowClick = false;  // the click that ends a long press opened the card: it does nothing else
  function viewCard(card) {
    var dialog = document.getElementById("card-view");
    if (!dialog || !dialog.showModal) return;
    var body = dialog.querySelector(".card-view-body");
    var copy = card.cloneNode(true);
    copy.classList.remove("selected", "just-arrived", "just-changed");
    copy.removeAttribute("tabindex");
    copy.removeAttribute("role");
    copy.removeAttribute("aria-describedby");
    copy.removeAttribute("id");
    qsa("[id]", copy).forEach(function (el) { el.removeAttribute("id"); });
    body.replaceChildren(copy);
    var name = card.querySelector(".card-name");
    var heading = document.getElementById("card-view-title");
    if (heading) heading.textContent = name ? name.textContent.trim() : "Card";
    if (!dialog.open) dialog.showModal();
  }
  function cardAt(target) { return target.closest ? target.closest("#hand .card-face, #decision .reveal .card-face") : null; }
  document.addEventListener("pointerdown", function (evt) {
    var card = cardAt(evt.target);
    if (!card) return;
    clearTimeout(longPress && longPress.timer);
    longPress = {
      card: card, x: evt.clientX, y: evt.clientY,
      timer: setTimeout(function () { swallowClick = true; viewCard(card); longPress = null; }, LONG_PRESS_MS)
    };
  });
  function endPress() { if (longPress) { clearTimeout(longPress.timer); longPress = null; } }
  document.addEventListener("pointerup", endPress);
  document.addEventListener("pointercancel", endPress);
  document.addEventListener("pointermove", function (evt) {
    if (longPress && Math.abs(evt.clientX - longPress.x) + Math.abs(evt.clientY - longPress.y) > 12) endPress();
  });
  // A long press on a phone opens the browser's own menu too: not on a card.
  document.addEventListener("contextmenu", function (evt) { if (cardAt(evt.target)) evt.preventDefault(); });

  document.addEventListener("click", function (evt) {
    var t = evt.target;
    if (!t.closest) return;
    if (swallowClick) {
      swallowClick = false;
      if (cardAt(t)) { evt.preventDefault(); return; }
    }
    var toggle = t.closest("[data-hand-toggle]");
    if (toggle) { setHand(!play().classList.contains("hand-open")); return; }
    if (t.closest("[data-show-all]")) { setList(!play().classList.contains("list-open")); return; }
    var dismiss = t.closest("[data-dismiss]");
    if (dismiss) { dismissPanel(dismiss); return; }
    if (t.closest("#ticker")) { hideTicker(); return; }
    if (t.closest("#decision") && !t.closest("#decision .reveal .card-face")) {  // its own buttons work
      // A choice sent from the decision's own buttons: on a phone the drawer gets out of the way too
      // (as after a tap on a card or the board), else the next question, perhaps about the board, is
      // half hidden under it.
      if (isPhone() && t.closest("#decision .choice-form button[type=submit]")) setHand(false);
      return;
    }
    // Big Base: "which slot?" is answered by a tap on the slot of the board (bigbase/_side.html).
    var slot = t.closest("#bases .bb-slot.is-option");
    if (slot) { evt.preventDefault(); pressSlot(slot); return; }
    var card = t.closest("#hand .card-face.is-option");
    if (card) { select(card); return; }
    var other = cardAt(t);
    if (other) { viewCard(other); return; }
    var base = t.closest("#bases .base");
    if (base && selected !== null && base.classList.contains("target")) {
      var uid = base.dataset.base;
      var go = optionsFor(selected).filter(function (b) { return b.dataset.base === uid; })[0];
      if (go) { evt.preventDefault(); press(go); }
      return;
    }
    var minion = t.closest("#bases .minion.is-option");
    if (minion) {
      var mine = optionsFor(minion.dataset.card);
      if (mine.length === 1) { evt.preventDefault(); press(mine[0]); }
      return;
    }
    if (base && base.classList.contains("is-option")) {
      var only = qsa("#decision .choice-form [name=options]").filter(function (b) {
        return b.dataset.base === base.dataset.base && !b.dataset.card;
      });
      if (only.length === 1) press(only[0]);
    }
  });
  document.addEventListener("keydown", function (evt) {
    if (evt.key === "Escape" && selected !== null) { unselect(); return; }
    var slot = evt.target.closest && evt.target.closest("#bases .bb-slot.is-option");
    if (slot && (evt.key === "Enter" || evt.key === " ")) { evt.preventDefault(); pressSlot(slot); return; }
    var card = evt.target.closest && evt.target.closest("#hand .card-face.is-option");
    if (card && (evt.key === "Enter" || evt.key === " ")) { evt.preventDefault(); select(card); }
  });

  // ------------------------------------------------------------------ panels dismissed here
  // "Since your last turn" and each scoring summary: hidden on this device once dismissed (by
  // their key, for this game), and a scoring summary once its player has chosen again.
  function dismissedKey() {  // per game and seat: a hot seat device is several players'
    var p = play();
    var status = document.getElementById("play-status");
    return "smashup.dismissed." + (p ? p.dataset.game : "") + "." + (status ? status.dataset.seat : "");
  }
  function dismissed() {
    var raw = stored(sessionStorage, dismissedKey());
    return raw ? raw.split(" ") : [];
  }
  function addDismissed(keys) {
    var all = dismissed().concat(keys).filter(function (k, i, a) { return k && a.indexOf(k) === i; });
    store(sessionStorage, dismissedKey(), all.slice(-40).join(" "));
  }
  function applyDismissed() {
    var gone = dismissed();
    var since = document.getElementById("since");
    if (since && since.dataset.key && gone.indexOf("since-" + since.dataset.key) >= 0) since.hidden = true;
    var box = document.getElementById("scoring");
    if (!box) return;
    var shown = 0;
    qsa(".scored", box).forEach(function (sc) {
      sc.hidden = gone.indexOf("scored-" + sc.dataset.key) >= 0;
      if (!sc.hidden) shown += 1;
    });
    box.hidden = shown === 0;
  }
  function dismissPanel(button) {
    var panel = button.closest("[data-key]");
    if (!panel) return;
    addDismissed([(button.dataset.dismiss === "since" ? "since-" : "scored-") + panel.dataset.key]);
    applyDismissed();
    var title = document.getElementById("decision-title");
    if (title) title.focus({ preventScroll: true });  // the button that had the focus is gone
  }
  document.addEventListener("submit", function (evt) {
    if (!evt.target.closest || !evt.target.closest("#decision .choice-form")) return;
    addDismissed(qsa("#scoring .scored:not([hidden])").map(function (sc) { return "scored-" + sc.dataset.key; }));
  }, true);

  // ------------------------------------------------------------------ what changed
  // Before each message: where every card on the board is and what it shows. After it: what
  // arrived, moved, left or changed is shown where it happened (see play.css, "what changed").
  function rectOf(el) {
    var r = el.getBoundingClientRect();
    return { left: r.left + window.scrollX, top: r.top + window.scrollY, width: r.width, height: r.height,
      seen: r.width > 0 && r.bottom > 0 && r.top < window.innerHeight };
  }
  function snapshot() {
    var vp = {};
    qsa("#players .player").forEach(function (p) {
      var s = p.querySelector(".player-vp strong");
      vp[p.dataset.seat] = s ? Number(s.textContent) : 0;
    });
    var minions = {};
    qsa("#bases .minion[data-card]").forEach(function (m) {
      var base = m.closest("[data-base]");
      var power = m.querySelector(".card-power");
      var counters = m.querySelector(".counters [aria-hidden]");
      minions[m.dataset.card] = {
        el: m, base: base ? base.dataset.base : "", rect: rectOf(m),
        power: power ? Number(power.textContent.replace(/\D+/g, "")) : 0,
        counters: counters ? Number(counters.textContent.replace(/[^\d-]+/g, "")) : 0,
        attached: qsa(".attached [data-card]", m).map(function (a) { return a.dataset.card; })
      };
    });
    var onBases = qsa("#bases .base-actions [data-card]").map(function (a) { return a.dataset.card; });
    var bases = {};
    qsa("#bases .base[data-base]").forEach(function (b) {
      var total = b.querySelector(".base-total");
      bases[b.dataset.base] = { el: b, rect: rectOf(b), total: total ? total.textContent : "" };
    });
    var lines = qsa("#log-lines li");
    return {
      minions: minions, bases: bases, vp: vp, onBases: onBases,
      hand: qsa("#hand .card-face[data-card]").map(function (c) { return c.dataset.card; }),
      lastLine: lines.length ? Number(lines[lines.length - 1].dataset.n) : 0,
      mineBefore: !!document.querySelector("#decision.mine"),
      decision: decisionId()
    };
  }
  function flash(el, cls) {
    if (!el) return;
    el.classList.remove(cls);
    void el.offsetWidth;  // restart the animation when the same thing changes twice in a row
    el.classList.add(cls);
    setTimeout(function () { el.classList.remove(cls); }, 1800);
  }
  function floatNote(el, text, down) {
    if (!el || stillMotion()) return;
    var r = el.getBoundingClientRect();
    if (!r.width) return;
    var note = document.createElement("span");
    note.className = "float-note" + (down ? " down" : "");
    note.setAttribute("aria-hidden", "true");
    note.textContent = text;
    note.style.left = (r.left + window.scrollX + r.width / 2 - 10) + "px";
    note.style.top = (r.top + window.scrollY - 8) + "px";
    document.body.appendChild(note);
    setTimeout(function () { note.remove(); }, 1500);
  }
  // What left the board fades where it was, over the page (the element itself is gone).
  function ghost(old, scored) {
    if (stillMotion() || !old.rect.seen) return;
    var copy = old.el.cloneNode(true);
    copy.removeAttribute("id");
    qsa("[id]", copy).forEach(function (el) { el.removeAttribute("id"); });
    copy.removeAttribute("data-card");
    copy.removeAttribute("data-base");
    qsa("[data-card]", copy).forEach(function (el) { el.removeAttribute("data-card"); });
    copy.setAttribute("aria-hidden", "true");
    copy.classList.add("ghost");
    if (scored) copy.classList.add("scored-ghost");
    copy.style.left = old.rect.left + "px";
    copy.style.top = old.rect.top + "px";
    copy.style.width = old.rect.width + "px";
    document.body.appendChild(copy);
    setTimeout(function () { copy.remove(); }, 1000);
  }
  // A minion that moved slides from where it was to where it is.
  function slide(el, from) {
    if (stillMotion() || !el.animate || !from.seen) { flash(el, "just-changed"); return; }
    var to = rectOf(el);
    var dx = from.left - to.left, dy = from.top - to.top;
    if (Math.abs(dx) + Math.abs(dy) < 2) return;
    el.animate([
      { transform: "translate(" + dx + "px," + dy + "px)", boxShadow: "0 0 0 4px #f59e0b" },
      { transform: "none", boxShadow: "0 0 0 0 transparent" }
    ], { duration: 650, easing: "ease-in-out" });
  }

  function beforeChange() { before = snapshot(); }
  function afterChange() {
    if (!before) return;
    var was = before;
    before = null;
    var now = {};
    var scoredBases = {};
    Object.keys(was.bases).forEach(function (uid) {
      if (!document.querySelector('#bases .base[data-base="' + uid + '"]')) scoredBases[uid] = true;
    });
    qsa("#bases .minion[data-card]").forEach(function (m) {
      var id = m.dataset.card;
      var base = m.closest("[data-base]");
      now[id] = true;
      var old = was.minions[id];
      if (!old) { flash(m, "just-arrived"); return; }
      if (base && old.base !== base.dataset.base) slide(m, old.rect);
      var power = m.querySelector(".card-power");
      var value = power ? Number(power.textContent.replace(/\D+/g, "")) : 0;
      if (power && value !== old.power) {
        flash(power, "just-bumped");
        floatNote(power, (value > old.power ? "+" : "−") + Math.abs(value - old.power), value < old.power);
      }
      var counters = m.querySelector(".counters [aria-hidden]");
      var count = counters ? Number(counters.textContent.replace(/[^\d-]+/g, "")) : 0;
      if (count !== old.counters) {
        if (counters) flash(counters.parentNode, "just-bumped");
        floatNote(counters ? counters.parentNode : m, (count > old.counters ? "+" : "−") + Math.abs(count - old.counters) + " counter", count < old.counters);
      }
      qsa(".attached [data-card]", m).forEach(function (a) {
        if (old.attached.indexOf(a.dataset.card) < 0) flash(a, "just-arrived");
      });
    });
    // Whatever left: a base that scored fades as a whole, a minion alone (destroyed, returned...).
    Object.keys(scoredBases).forEach(function (uid) { ghost(was.bases[uid], true); });
    Object.keys(was.minions).forEach(function (id) {
      var old = was.minions[id];
      if (!now[id] && !scoredBases[old.base]) ghost(old, false);
    });
    qsa("#bases .base[data-base]").forEach(function (b) {
      var old = was.bases[b.dataset.base];
      if (!old) { flash(b, "just-arrived"); return; }
      var total = b.querySelector(".base-total");
      if (total && total.textContent !== old.total) flash(total, "just-bumped");
    });
    qsa("#bases .base-actions [data-card]").forEach(function (a) {
      if (was.onBases.indexOf(a.dataset.card) < 0) flash(a, "just-arrived");
    });
    qsa("#hand .card-face[data-card]").forEach(function (c) {
      if (was.hand.length && was.hand.indexOf(c.dataset.card) < 0) flash(c, "just-arrived");
    });
    qsa("#players .player").forEach(function (p) {
      var s = p.querySelector(".player-vp strong");
      var gained = s ? Number(s.textContent) - (was.vp[p.dataset.seat] || 0) : 0;
      if (gained > 0) { flash(s, "score-up"); floatNote(s, "+" + gained + " VP"); }
    });
    var mineNow = !!document.querySelector("#decision.mine");
    // The last moves under the status bar: not while the player goes on with their own turn (they
    // just made that move), but whenever someone else moved.
    var fresh = qsa("#log-lines li").filter(function (li) { return Number(li.dataset.n) > was.lastLine; });
    if (fresh.length && was.lastLine && !(was.mineBefore && mineNow)) {
      showTicker(fresh.map(function (li) { return li.textContent; }));
    }
    if (mineNow && (!was.mineBefore || was.decision !== decisionId())) {
      cue();
      // A new question for me: it comes first. On a phone the player may have scrolled down to the
      // bases (to tap one); bring the decision back into view (on a wider screen it never left).
      var box = document.getElementById("decision");
      var top = box ? box.getBoundingClientRect().top : 0;
      if (box && (top < 0 || top > window.innerHeight * 0.6)) box.scrollIntoView({ block: "start" });
    }
    // A card picked for a question that is gone: forget it; the same question: light it again.
    if (selected !== null) {
      var card = document.querySelector('#hand .card-face[data-card="' + selected + '"]');
      if (selectedFor !== decisionId() || !card) unselect();
      else { var id = selected; selected = null; select(card); if (selected === null) selected = id; }
    }
    markTicked();
    settle();
  }
  // The hand's compact faces show as many whole lines of their text as their height leaves (a
  // long name takes a line from it); the rest shows when the card rises (pointed at, focused,
  // picked) or opens at full size.
  function fitTexts() {
    var row = document.getElementById("hand-cards");
    if (row) {
      row.classList.remove("scrolls");
      if (!isPhone() && row.scrollWidth > row.clientWidth + 1) row.classList.add("scrolls");
    }
    qsa("#hand .card-face .card-text").forEach(function (text) {
      text.style.webkitLineClamp = "";
      var face = text.parentNode;
      if (getComputedStyle(face).position !== "absolute") return;  // a phone's faces: the CSS clamps
      var style = getComputedStyle(text);
      var line = parseFloat(style.lineHeight) || 16;
      var room = face.clientHeight - text.offsetTop - parseFloat(style.marginBottom || "0");
      if (room > 0 && text.scrollHeight > room + 1) text.style.webkitLineClamp = String(Math.max(1, Math.floor(room / line)));
    });
  }
  window.addEventListener("resize", fitTexts);
  // What every redraw needs: the drawer's and the list's state, the panels dismissed here.
  function settle() {
    fitTexts();
    var p = play();
    var toggle = document.querySelector("[data-hand-toggle]");
    if (toggle && p) toggle.setAttribute("aria-expanded", p.classList.contains("hand-open") ? "true" : "false");
    showToggle();
    applyDismissed();
  }
  document.addEventListener("htmx:wsBeforeMessage", beforeChange);
  document.addEventListener("htmx:wsAfterMessage", afterChange);
  document.addEventListener("htmx:beforeRequest", beforeChange);
  document.addEventListener("htmx:afterSettle", afterChange);

  // The last moves, in a line under the status bar: the new log lines of one message at a time.
  function showTicker(lines) {
    var ticker = document.getElementById("ticker");
    if (!ticker) return;
    ticker.replaceChildren();
    lines.slice(-3).forEach(function (text) {
      var p = document.createElement("p");
      p.textContent = text;
      ticker.appendChild(p);
    });
    ticker.hidden = false;
    clearTimeout(tickerTimer);
    tickerTimer = setTimeout(hideTicker, TICKER_MS);
  }
  function hideTicker() {
    var ticker = document.getElementById("ticker");
    if (ticker) ticker.hidden = true;
  }

  document.addEventListener("DOMContentLoaded", function () {
    var p = play();
    if (!p) return;
    if (stored(localStorage, LIST_KEY) === "1") p.classList.add("list-open");
    if (stored(sessionStorage, KEYBOARD_KEY) === "1") p.classList.add("keyboard", "list-open");
    settle();
  });

  // ------------------------------------------------------------------ sound and vibration
  function soundOn() { try { return localStorage.getItem(SOUND_KEY) === "on"; } catch (e) { return false; } }
  var audio = null;
  function cue() {
    if (!soundOn()) return;
    try {
      audio = audio || new (window.AudioContext || window.webkitAudioContext)();
      var osc = audio.createOscillator(), gain = audio.createGain();
      osc.frequency.value = 660;
      gain.gain.setValueAtTime(0.12, audio.currentTime);
      gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.25);
      osc.connect(gain).connect(audio.destination);
      osc.start();
      osc.stop(audio.currentTime + 0.25);
    } catch (e) { /* no audio here: the vibration, if any, still says it */ }
    if (navigator.vibrate) navigator.vibrate(80);
  }
  function showSound() {
    var b = document.querySelector("[data-sound-toggle]");
    if (!b) return;
    var on = soundOn();
    b.setAttribute("aria-pressed", on ? "true" : "false");
    b.textContent = on ? "♪ on" : "♪ off";
    b.setAttribute("aria-label", on ? "Sound and vibration on" : "Sound and vibration off");
  }
  document.addEventListener("click", function (evt) {
    var b = evt.target.closest && evt.target.closest("[data-sound-toggle]");
    if (!b) return;
    try { localStorage.setItem(SOUND_KEY, soundOn() ? "off" : "on"); } catch (e) { /* private mode */ }
    showSound();
    if (soundOn()) cue();
  });
  document.addEventListener("DOMContentLoaded", showSound);
})();
