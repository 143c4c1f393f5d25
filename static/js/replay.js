/* The replay page: play, pause, speed, step, jump to a choice or a turn, in place. Each step's board
   is fetched from the server (?part=body, the same view without the page around it) and swapped in:
   no page load. It opens at the start and plays; the links stay for a browser without JavaScript. */
(function () {
  "use strict";
  var root, body, playing = false, timer = null, loading = false, runs = 0;

  function steps() { return Number(body.dataset.steps); }
  function step() { return Number(body.dataset.step); }
  function speed() {
    var s = document.querySelector('[data-replay="speed"]');
    return s ? Number(s.value) : 900;
  }
  function urlFor(n, part) {
    var q = new URLSearchParams();
    q.set("step", String(n));
    if (root.dataset.as !== undefined) q.set("as", root.dataset.as);
    if (part) q.set("part", "body");
    return root.dataset.url + "?" + q.toString();
  }
  // `run`: the replay playing by itself, counted at each pause. Its next step, still on its way when the
  // player pauses (or jumps), is dropped: the board stays on the step shown when they paused, and a
  // Play right after starts one run, not two.
  function show(n, run) {
    n = Math.max(0, Math.min(steps(), n));
    loading = true;
    root.dataset.loading = "1";  // a step on its way
    return fetch(urlFor(n, true), { headers: { "X-Requested-With": "fetch" } })
      .then(function (r) { if (!r.ok) throw new Error(String(r.status)); return r.text(); })
      .then(function (html) {
        if (run !== undefined && run !== runs) return;
        var box = document.createElement("div");
        box.innerHTML = html;
        var fresh = box.querySelector("#replay-body");
        if (!fresh) throw new Error("no body");
        body.replaceWith(fresh);
        body = fresh;
        history.replaceState(null, "", urlFor(n, false));
        var input = document.getElementById("replay-step");
        if (input) input.value = String(n);
        links();
        turnShown(n);
      })
      .catch(function () { pause(); })
      .finally(function () { loading = false; root.dataset.loading = ""; });
  }
  function turnShown(n) {  // the turn select names the turn the step shown belongs to
    var turn = document.querySelector('[data-replay="turn"]');
    if (!turn) return;
    var at = -1;
    Array.prototype.forEach.call(turn.options, function (o, i) { if (Number(o.value) <= n) at = i; });
    if (at >= 0) turn.selectedIndex = at;
  }
  function links() {  // the no-JavaScript links point at the steps around the one shown
    var at = { first: 0, prev: Math.max(step() - 1, 0), next: Math.min(step() + 1, steps()), last: steps() };
    Object.keys(at).forEach(function (k) {
      var a = document.querySelector('[data-replay="' + k + '"]');
      if (a) a.setAttribute("href", urlFor(at[k], false));
    });
  }
  function tick() {
    timer = null;
    if (!playing) return;
    if (step() >= steps()) { pause(); return; }
    var run = runs;
    show(step() + 1, run).then(function () { if (playing && run === runs) timer = setTimeout(tick, speed()); });
  }
  function play() {
    if (step() >= steps()) { show(0).then(start); return; }
    start();
  }
  function start() {
    playing = true;
    label();
    if (!timer) timer = setTimeout(tick, speed());
  }
  function pause() {
    playing = false;
    runs += 1;
    if (timer) { clearTimeout(timer); timer = null; }
    label();
  }
  function label() {
    var b = document.querySelector('[data-replay="play"]');
    if (!b) return;
    b.textContent = playing ? "Pause" : "Play";
    b.setAttribute("aria-pressed", playing ? "true" : "false");
    root.dataset.playing = playing ? "1" : "";
  }

  document.addEventListener("DOMContentLoaded", function () {
    root = document.querySelector(".replay[data-url]");
    body = document.getElementById("replay-body");
    if (!root || !body) return;
    document.querySelectorAll('[data-replay="play"], .replay-speed').forEach(function (el) { el.hidden = false; });
    document.addEventListener("click", function (evt) {
      var el = evt.target.closest && evt.target.closest("[data-replay]");
      if (!el || el.tagName === "SELECT") return;
      evt.preventDefault();
      var what = el.dataset.replay;
      if (what === "play") { if (playing) pause(); else play(); return; }
      pause();
      if (loading) return;
      show({ first: 0, prev: step() - 1, next: step() + 1, last: steps() }[what]);
    });
    var turn = document.querySelector('[data-replay="turn"]');
    if (turn) {
      turn.addEventListener("change", function () {
        if (turn.value === "") return;
        pause();
        show(Number(turn.value));
      });
      turn.form.addEventListener("submit", function (evt) {  // "Go": the same, in place
        evt.preventDefault();
        pause();
        show(Number(turn.value));
      });
      turnShown(step());
    }
    var jump = document.querySelector(".replay-jump");
    var input = document.getElementById("replay-step");
    var as = document.getElementById("replay-as");
    if (jump && input) jump.addEventListener("submit", function (evt) {
      var wanted = as ? as.value : "";
      if (wanted !== (root.dataset.as || "")) return;  // another player's hand: the page itself changes
      evt.preventDefault();
      pause();
      show(Number(input.value) || 0);
    });
    var filter = document.querySelector("[data-log-filter]");
    if (filter) filter.addEventListener("change", function () {
      document.querySelectorAll(".whole-log li").forEach(function (li) {
        li.hidden = filter.value !== "" && li.dataset.turn !== filter.value;
      });
    });
    label();
    if (root.dataset.autoplay === "1") start();
  });
})();
