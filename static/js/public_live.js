/* Live public pages: ask the event's generation every few seconds (a 304 while nothing moved: the
 * server answers from its cache, no page is rendered) and, when it moves, re-read this page and
 * swap its #live part in place. Without JavaScript the page is simply reloaded by the reader.
 * A hidden tab stops asking and catches up as soon as it is shown again. */
(function () {
  "use strict";
  var live = document.getElementById("live");
  if (!live || !live.dataset.liveUrl || !window.fetch) { return; }
  var EVERY_MS = 3000;
  var known = null;
  var busy = false;

  function typing() {
    var active = document.activeElement;
    return active && live.contains(active) && /^(INPUT|TEXTAREA|SELECT)$/.test(active.tagName);
  }

  function refreshPage() {
    return fetch(window.location.href, { credentials: "same-origin", cache: "no-cache" })
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) {
        if (!html) { return; }
        var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("live");
        if (fresh && fresh.innerHTML !== live.innerHTML && !typing()) {
          live.innerHTML = fresh.innerHTML;
          live.dispatchEvent(new CustomEvent("live:updated", { bubbles: true }));
        }
      });
  }

  function check() {
    if (busy || document.hidden) { return; }
    busy = true;
    // cache: "no-cache" revalidates with the ETag the browser kept: 304 while nothing changed.
    fetch(live.dataset.liveUrl, { credentials: "same-origin", cache: "no-cache", headers: { Accept: "application/json" } })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (body) {
        if (!body || body.generation === null) { return null; }
        var moved = known !== null && body.generation !== known;
        known = body.generation;
        return moved ? refreshPage() : null;
      })
      .catch(function () { /* the next tick tries again */ })
      .then(function () { busy = false; });
  }

  check();
  window.setInterval(check, EVERY_MS);
  document.addEventListener("visibilitychange", check);
}());
