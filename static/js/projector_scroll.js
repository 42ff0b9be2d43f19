/* Pairings projector: when the columns are wider than the screen, scroll them sideways a screen at a
 * time, pause on each screen long enough to find a name, and start again from A at the end. */
(function () {
  "use strict";
  var viewport = document.querySelector("[data-autoscroll]");
  if (!viewport) { return; }
  var PAUSE_MS = 12000;
  function step() {
    var max = viewport.scrollWidth - viewport.clientWidth;
    if (max <= 0) { return; }
    var next = viewport.scrollLeft + viewport.clientWidth;
    viewport.scrollTo({ left: next > max + 1 ? 0 : Math.min(next, max), behavior: "smooth" });
  }
  window.setInterval(step, PAUSE_MS);
}());
