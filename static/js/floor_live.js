/* Keep a floor page's live parts fresh: every [data-live] element is re-read from the same page
 * every data-live-every seconds (default 5) and swapped in place, unless the judge is typing in
 * it. Without JavaScript the page refreshes itself through its <noscript> meta refresh. */
(function () {
  "use strict";
  var parts = document.querySelectorAll("[data-live][id]");
  if (!parts.length) { return; }
  var every = Math.max(2, parseInt(parts[0].getAttribute("data-live-every") || "5", 10)) * 1000;
  // By id at each refresh: another script may have replaced a part (outbox.js swaps in the server's answer).
  var ids = Array.prototype.map.call(parts, function (element) { return element.id; });
  function busy(element) {
    var active = document.activeElement;
    return active && element.contains(active) && /^(INPUT|TEXTAREA|SELECT)$/.test(active.tagName);
  }
  function refresh() {
    fetch(window.location.href, { credentials: "same-origin", headers: { "X-Live-Refresh": "1" } })
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) {
        if (!html) { return; }
        var fresh = new DOMParser().parseFromString(html, "text/html");
        ids.forEach(function (id) {
          var element = document.getElementById(id);
          var replacement = fresh.getElementById(id);
          if (element && replacement && !busy(element) && replacement.innerHTML !== element.innerHTML) {
            element.innerHTML = replacement.innerHTML;
          }
        });
      })
      .catch(function () { /* the next tick tries again */ });
  }
  window.setInterval(refresh, every);
}());
