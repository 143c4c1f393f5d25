/* Under a faction <select> (play/_faction_select.html), the chosen faction's one line: the server
   renders it for the faction already chosen; this follows each change (the seats panel is swapped in by
   htmx, so the listener is the document's). */
(function () {
  "use strict";
  document.addEventListener("change", function (evt) {
    var select = evt.target;
    if (!select.matches || !select.matches("select[data-faction-select]")) return;
    var blurb = document.getElementById(select.id + "-blurb");
    if (!blurb) return;
    var option = select.options[select.selectedIndex];
    blurb.textContent = (option && option.dataset.blurb) || "";
  });
})();
