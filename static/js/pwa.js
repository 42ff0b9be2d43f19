/* Every page: register the service worker where the browser gives one (a secure context: the
 * HTTPS site, or localhost), and say when what the page shows is not live: a copy the worker kept,
 * shown while the network is gone ("as of HH:MM (offline)", the time it was fetched), or an open
 * page whose connection dropped (as of the moment it dropped). Times are in the event's zone. */
(function () {
  "use strict";
  var gettext = window.gettext || function (text) { return text; };
  var interpolate = window.interpolate || function (format, values) {
    return format.replace(/%\(\w+\)s/g, function (match) { return values[match.slice(2, -2)]; });
  };
  var script = document.currentScript;
  var banner = document.getElementById("offline-banner");
  var keptAt = document.documentElement.getAttribute("data-offline-as-of");
  var format = null;
  try {
    format = new Intl.DateTimeFormat("en-GB", { hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone: banner ? banner.dataset.timeZone || undefined : undefined });
  } catch (error) {
    format = new Intl.DateTimeFormat("en-GB", { hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
  }

  function show(since) {
    if (!banner) { return; }
    banner.textContent = interpolate(gettext("As of %(time)s (offline)"), { time: format.format(since) }, true);
    banner.hidden = false;
  }

  function hide() {
    if (banner && !keptAt) { banner.hidden = true; }
  }


  // A kept copy is replaced by the live page once the server answers again (after the outbox,
  // if the page has one, has sent what it holds).
  var reloading = false;
  function reloadWhenBack() {
    if (!keptAt || reloading) { return; }
    fetch(window.location.href, { method: "HEAD", credentials: "same-origin", cache: "no-store" })
      .then(function (response) {
        if (reloading || response.status >= 500) { return; }
        reloading = true;
        var outbox = window.twohgOutbox;
        (outbox ? outbox.flush() : Promise.resolve()).then(function () { window.location.reload(); });
      })
      .catch(function () { /* still offline: the next try */ });
  }

  // Other scripts (the outbox) report what their requests found.
  window.twohgConnection = {
    lost: function () { if (banner && banner.hidden) { show(new Date()); } },
    back: function () {
      hide();
      reloadWhenBack();
    }
  };

  if (keptAt) {
    show(new Date(keptAt));
    window.setInterval(reloadWhenBack, 5000);
  } else if (navigator.onLine === false) {
    show(new Date());
  }
  window.addEventListener("offline", function () { window.twohgConnection.lost(); });
  window.addEventListener("online", function () {
    hide();
    reloadWhenBack();
  });

  if (window.isSecureContext && "serviceWorker" in navigator && script && script.dataset.serviceWorker) {
    navigator.serviceWorker.register(script.dataset.serviceWorker, { scope: "/" }).catch(function () {
      /* the page works without it */
    });
  }
}());
