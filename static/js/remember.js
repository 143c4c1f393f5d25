/* The player's name, remembered on this device (localStorage, never sent anywhere by itself): a name
   field marked data-remember-name starts with it when empty, and a submitted form keeps the name typed. */
(function () {
  "use strict";
  var KEY = "smashup.name";
  function stored() { try { return localStorage.getItem(KEY) || ""; } catch (e) { return ""; } }
  function fill(root) {
    var name = stored();
    if (!name) return;
    (root || document).querySelectorAll("input[data-remember-name]").forEach(function (input) {
      if (!input.value) input.value = name;
    });
  }
  document.addEventListener("DOMContentLoaded", function () { fill(); });
  document.addEventListener("htmx:afterSwap", function (evt) { fill(evt.target); });  // the seats panel
  document.addEventListener("submit", function (evt) {
    var input = evt.target.querySelector && evt.target.querySelector("input[data-remember-name]");
    var name = input ? input.value.trim() : "";
    if (!name) return;
    try { localStorage.setItem(KEY, name); } catch (e) { /* private mode: nothing remembered */ }
    // The quick form has no name field of its own: it borrows the remembered one (see lobby.html).
  }, true);
})();
