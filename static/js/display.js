/* The table display fits its screen (bigbase/display.html, display.css): the type is as large as
   display.css sets it for the screen, and only when the page would be taller or wider than the screen
   (a board full of long texts) is the root's size lowered, to the largest that fits, down to FLOOR.
   Nothing is cut off or hidden: the texts wrap. It fits again after every live update. */
(function () {
  "use strict";
  var FLOOR = 0.6, root = document.documentElement, pending = false;

  function overflows() {
    var page = document.scrollingElement || root;
    return page.scrollHeight > window.innerHeight || page.scrollWidth > window.innerWidth;
  }
  function fit() {
    pending = false;
    root.style.fontSize = "";  // the size display.css gives this screen
    var base = parseFloat(getComputedStyle(root).fontSize);
    var scale = 1;
    if (overflows()) {  // the largest scale that fits, to a hundredth (a few layouts, not one per step)
      var low = FLOOR, high = 1;
      while (high - low > 0.01) {
        var mid = (low + high) / 2;
        root.style.fontSize = (base * mid).toFixed(2) + "px";
        if (overflows()) high = mid; else low = mid;
      }
      scale = low;
      root.style.fontSize = (base * scale).toFixed(2) + "px";
    }
    root.dataset.fit = scale.toFixed(3);  // what the tests and a curious reader can see
  }
  function later() {
    if (pending) return;
    pending = true;
    window.requestAnimationFrame(fit);
  }
  document.addEventListener("DOMContentLoaded", function () {
    if (!root.classList.contains("display-html")) return;
    fit();
    window.addEventListener("resize", later);
    var play = document.querySelector(".play.display");
    if (play && window.MutationObserver) {
      new MutationObserver(later).observe(play, { childList: true, subtree: true, characterData: true });
    }
  });
})();
