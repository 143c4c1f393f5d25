/* A hot seat device (one device passed around the table): a seat's page goes back to the privacy
   screen as soon as the decision is no longer that seat's, so the next player never sees the hand
   of the one before. */
(function () {
  "use strict";
  function check() {
    var root = document.querySelector(".play[data-hot-return]");
    var status = document.getElementById("play-status");
    if (!root || !status) return;
    var mine = status.dataset.seat !== "" && status.dataset.deciding === status.dataset.seat;
    if (!mine || status.dataset.status === "finished") window.location.replace(root.dataset.hotReturn);
  }
  document.addEventListener("htmx:wsAfterMessage", check);
  document.addEventListener("htmx:afterSettle", check);
  document.addEventListener("DOMContentLoaded", check);
})();
