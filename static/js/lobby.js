/* The lobby: the first person seat is the creator's own row (its factions are theirs when each
   player picks), so the mark follows the seats' "Who" choices; an error summary takes the focus so
   that it is seen and read. */
(function () {
  "use strict";
  function markMine() {
    var rows = document.querySelectorAll(".lobby-form .seat-row");
    var found = false;
    rows.forEach(function (row) {
      var kind = row.querySelector("select[name$='_kind']");
      var mine = !found && kind && kind.value === "person";
      if (mine) found = true;
      row.classList.toggle("my-row", !!mine);
    });
  }
  document.addEventListener("change", function (evt) {
    if (evt.target.name && /^seat\d_kind$/.test(evt.target.name)) markMine();
  });
  document.addEventListener("DOMContentLoaded", function () {
    markMine();
    var errors = document.getElementById("form-errors") || document.getElementById("quick-errors");
    if (errors) {
      errors.setAttribute("tabindex", "-1");
      errors.scrollIntoView({ block: "center" });
      errors.focus({ preventScroll: true });
    }
  });
})();
