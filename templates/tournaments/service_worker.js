{% autoescape off %}/* The site's service worker (tournaments/pages/offline.py says why it is written by hand).
 * Pages a phone has opened (the public pages and the player's own, CONFIG.pages) come from the
 * network and are kept; with the network gone the kept copy is shown, marked with the time it was
 * fetched (static/js/pwa.js shows "as of HH:MM (offline)"). Static files come from the phone and
 * are refreshed behind. Writes (POST) always go to the network: static/js/outbox.js keeps them. */
"use strict";

var CONFIG = {{ config }};
var PAGES = "pages";
var STATIC = "static-" + CONFIG.version;
var PAGE_PATTERNS = CONFIG.pages.map(function (source) { return new RegExp(source); });

// Each file on its own: on a congested hall network one lost request must not cost the phone its
// worker (cache.addAll fails whole, and the page would not try again before its next load). What
// is missing is fetched again after each page the phone loads (fillGaps). Without cookies: the
// offline page is the same for everyone (no name, no token in it).
function precacheMissing() {
  return caches.open(STATIC).then(function (cache) {
    return Promise.all(CONFIG.precache.map(function (url) {
      var request = new Request(url, { credentials: "omit" });
      return cache.match(request).then(function (kept) {
        if (kept) {
          return null;
        }
        return fetch(request).then(function (response) {
          return response.ok ? cache.put(request, response) : null;
        }).catch(function () { return null; });
      });
    }));
  });
}

self.addEventListener("install", function (event) {
  event.waitUntil(precacheMissing().then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys()
      .then(function (names) {
        return Promise.all(names.filter(function (name) {
          return name.indexOf("static-") === 0 && name !== STATIC;
        }).map(function (name) { return caches.delete(name); }));
      })
      .then(function () { return self.clients.claim(); })
  );
});

function isPage(url) {
  return PAGE_PATTERNS.some(function (pattern) { return pattern.test(url.pathname); });
}

function isStatic(url) {
  return url.pathname.indexOf(CONFIG.static) === 0 || url.pathname.indexOf(CONFIG.catalog) === 0;
}

// The kept copy carries the time it was fetched; the page reads it from <html data-offline-as-of>.
function keep(request, response) {
  var type = response.headers.get("Content-Type") || "";
  if (response.status !== 200 || response.redirected || type.indexOf("text/html") !== 0) {
    return Promise.resolve();
  }
  return response.clone().text().then(function (body) {
    var headers = new Headers(response.headers);
    headers.set("X-Fetched-At", new Date().toISOString());
    var copy = new Response(body, { status: 200, headers: headers });
    return caches.open(PAGES).then(function (cache) { return cache.put(request.url, copy); });
  });
}

function keptCopy(request) {
  return caches.match(request.url, { cacheName: PAGES, ignoreVary: true }).then(function (kept) {
    if (!kept) {
      return null;
    }
    var fetchedAt = kept.headers.get("X-Fetched-At") || "";
    return kept.text().then(function (body) {
      var marked = body.replace("<html ", '<html data-offline-as-of="' + fetchedAt + '" ');
      return new Response(marked, { status: 200, headers: { "Content-Type": kept.headers.get("Content-Type") } });
    });
  });
}

function offlinePage() {
  return caches.match(CONFIG.offline, { cacheName: STATIC }).then(function (page) {
    return page || Response.error();
  });
}

// A page: the network's answer, kept; offline, the kept copy for a navigation (a script's own
// re-read gets the network error, so it knows the network is gone).
function networkFirst(event) {
  var request = event.request;
  return fetch(request).then(function (response) {
    event.waitUntil(keep(request, response).then(precacheMissing));
    return response;
  }, function (error) {
    if (request.mode !== "navigate") {
      throw error;
    }
    return keptCopy(request).then(function (kept) { return kept || offlinePage(); });
  });
}

function staleWhileRevalidate(event) {
  return caches.open(STATIC).then(function (cache) {
    return cache.match(event.request, { ignoreVary: true }).then(function (kept) {
      var fresh = fetch(event.request).then(function (response) {
        if (response.status === 200) {
          event.waitUntil(cache.put(event.request, response.clone()));
        }
        return response;
      });
      if (kept) {
        event.waitUntil(fresh.catch(function () { return null; }));
        return kept;
      }
      return fresh;
    });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) {
    return;
  }
  if (request.method !== "GET") {
    if (CONFIG.forgetOn.indexOf(url.pathname) !== -1) {
      event.waitUntil(caches.delete(PAGES));
    }
    return;
  }
  if (isPage(url)) {
    event.respondWith(networkFirst(event));
  } else if (isStatic(url)) {
    event.respondWith(staleWhileRevalidate(event));
  } else if (request.mode === "navigate") {
    event.respondWith(fetch(request).catch(offlinePage));
  }
});
{% endautoescape %}
