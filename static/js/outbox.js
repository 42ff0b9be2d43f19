/* The player's page: a result report or judge call is kept on the phone until the server has it.
 * Each tap becomes an entry with a fresh idempotency key, stored before it is sent: in IndexedDB
 * where the browser gives this site a service worker (a secure context), in localStorage where it
 * does not (a laptop reached over plain http), and sent now, on the way back online, on load and
 * every few seconds while one waits. The server answers a key it has seen with its first answer
 * (common/idempotency.py), so a try whose answer was lost never makes a second report or call.
 * An answer (accepted or refused, with the reason) replaces the page's report and call blocks;
 * a network error keeps the entry, shown as "will be sent when you are back online".
 * Without JavaScript the forms post as plain forms. */
(function () {
  "use strict";
  var gettext = window.gettext || function (text) { return text; };
  var interpolate = window.interpolate || function (format, values) {
    return format.replace(/%\(\w+\)s/g, function (match) { return values[match.slice(2, -2)]; });
  };
  var RETRY_MS = 5000;
  var LOCAL_KEY = "twohg-outbox";
  var DB_NAME = "twohg";
  var STORE = "outbox";
  var REFRESHED = ["me-report", "judge-call"];

  // --- where entries are kept -------------------------------------------------------------
  var local = {
    all: function () {
      try {
        return Promise.resolve(JSON.parse(window.localStorage.getItem(LOCAL_KEY) || "[]"));
      } catch (error) {
        return Promise.resolve([]);
      }
    },
    write: function (entries) {
      window.localStorage.setItem(LOCAL_KEY, JSON.stringify(entries));
      return Promise.resolve();
    },
    put: function (entry) {
      return local.all().then(function (entries) {
        return local.write(entries.filter(function (e) { return e.key !== entry.key; }).concat([entry]));
      });
    },
    remove: function (key) {
      return local.all().then(function (entries) {
        return local.write(entries.filter(function (e) { return e.key !== key; }));
      });
    }
  };

  function request(result) {
    return new Promise(function (resolve, reject) {
      result.onsuccess = function () { resolve(result.result); };
      result.onerror = function () { reject(result.error); };
    });
  }

  var database = null;
  function openDatabase() {
    if (!database) {
      var opening = window.indexedDB.open(DB_NAME, 1);
      opening.onupgradeneeded = function () { opening.result.createObjectStore(STORE, { keyPath: "key" }); };
      database = request(opening);
    }
    return database;
  }

  function transact(mode, work) {
    return openDatabase().then(function (db) {
      var tx = db.transaction(STORE, mode);
      var result = work(tx.objectStore(STORE));
      return new Promise(function (resolve, reject) {
        tx.oncomplete = function () { resolve(result && result.result); };
        tx.onerror = function () { reject(tx.error); };
      });
    });
  }

  var indexed = {
    all: function () { return transact("readonly", function (store) { return store.getAll(); }); },
    put: function (entry) { return transact("readwrite", function (store) { return store.put(entry); }); },
    remove: function (key) { return transact("readwrite", function (store) { return store.delete(key); }); }
  };

  var withWorker = window.isSecureContext && "serviceWorker" in navigator && !!window.indexedDB;
  var store = withWorker ? indexed : local;
  // Entries of both kinds of storage are sent (an entry kept before the worker came is not lost).
  function allEntries() {
    var reads = [local.all()];
    if (withWorker) { reads.push(indexed.all().catch(function () { return []; })); }
    return Promise.all(reads).then(function (lists) {
      var seen = {};
      return [].concat.apply([], lists).filter(function (entry) {
        if (seen[entry.key]) { return false; }
        seen[entry.key] = true;
        return true;
      }).sort(function (a, b) { return a.queuedAt - b.queuedAt; });
    });
  }

  function removeEntry(key) {
    return Promise.all([local.remove(key), withWorker ? indexed.remove(key) : null]);
  }

  // --- what the page shows ----------------------------------------------------------------
  function newKey() {
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return (b < 16 ? "0" : "") + b.toString(16); }).join("");
  }

  function pendingText(entry) {
    if (entry.kind === "call") {
      return gettext("Your judge call will be sent when you are back online.");
    }
    return interpolate(gettext("Your report (%(choice)s) will be sent when you are back online."), { choice: entry.label }, true);
  }

  function showPending() {
    return allEntries().then(function (entries) {
      document.querySelectorAll("[data-outbox-pending]").forEach(function (note) { note.remove(); });
      entries.forEach(function (entry) {
        var block = document.getElementById(entry.kind === "call" ? "judge-call" : "me-report");
        if (!block) { return; }
        var note = document.createElement("p");
        note.className = "notice warn";
        note.setAttribute("role", "status");
        note.setAttribute("data-outbox-pending", entry.kind);
        note.textContent = pendingText(entry);
        block.insertBefore(note, block.querySelector("form"));
      });
    });
  }

  // A copy the worker kept is reloaded as the live page once the network is back (pwa.js): what
  // the server said about the entries sent meanwhile (a refusal and why) is carried over to it.
  var SAID = "twohg-outbox-said";
  var keptCopy = document.documentElement.hasAttribute("data-offline-as-of");

  function said(fresh) {
    var notes = [];
    REFRESHED.forEach(function (id) {
      var note = fresh.querySelector("#" + id + " .report-message");
      if (note) { notes.push({ block: id, html: note.outerHTML }); }
    });
    var messages = fresh.querySelector("main > ul.messages");
    if (messages) { notes.push({ block: null, html: messages.outerHTML }); }
    return notes;
  }

  // Each answer's words are added to those of the entries sent before it (a report, then a call).
  function carryOver(fresh) {
    try {
      var notes = JSON.parse(window.sessionStorage.getItem(SAID) || "[]");
      said(fresh).forEach(function (note) {
        notes = notes.filter(function (kept) { return kept.block !== note.block || note.block === null; });
        if (!notes.some(function (kept) { return kept.html === note.html; })) { notes.push(note); }
      });
      window.sessionStorage.setItem(SAID, JSON.stringify(notes));
    } catch (error) { /* storage refused: the live page shows the state without the words */ }
  }

  function showCarried() {
    var notes;
    try {
      notes = JSON.parse(window.sessionStorage.getItem(SAID) || "[]");
      window.sessionStorage.removeItem(SAID);
    } catch (error) {
      return;
    }
    var main = document.querySelector("main");
    var top = main && main.firstChild;  // the page's messages stay in the order they were said
    notes.forEach(function (note) {
      var node = new DOMParser().parseFromString(note.html, "text/html").body.firstElementChild;
      var block = note.block ? document.getElementById(note.block) : main;
      if (!node || !block || (note.block && block.querySelector(".report-message"))) { return; }
      var before = note.block ? block.querySelector("form") : top;
      block.insertBefore(document.importNode(node, true), before);
    });
  }

  // The server's answer (the player's page after the write, or its report block) replaces the
  // page's report and call blocks and messages: the player sees what was saved or why not.
  function showAnswer(html) {
    var fresh = new DOMParser().parseFromString(html, "text/html");
    if (keptCopy) { carryOver(fresh); }
    if (!fresh.getElementById("my-team")) {
      // Not the player's page (signed out meanwhile, a refused form): the page says what it is.
      window.location.reload();
      return;
    }
    REFRESHED.forEach(function (id) {
      var current = document.getElementById(id);
      var replacement = fresh.getElementById(id);
      if (current && replacement) {
        current.replaceWith(document.importNode(replacement, true));
        if (window.htmx) { window.htmx.process(document.getElementById(id)); }
      } else if (current && fresh.querySelector("main")) {
        current.remove();
      }
    });
    var messages = fresh.querySelector("main > ul.messages");
    var main = document.querySelector("main");
    var old = document.querySelector("main > ul.messages");
    if (old) { old.remove(); }
    if (messages && main) {
      main.insertBefore(document.importNode(messages, true), main.firstChild);
    }
  }

  // --- sending ----------------------------------------------------------------------------
  var flushing = null;
  function send(entry) {
    return fetch(entry.url, {
      method: "POST",
      body: new URLSearchParams(entry.fields),
      credentials: "same-origin",
      headers: { "Idempotency-Key": entry.key }
    }).then(function (response) {
      if (response.status >= 500) {
        throw new Error("server answered " + response.status);
      }
      return response.text().then(function (html) {
        return removeEntry(entry.key).then(function () { showAnswer(html); });
      });
    });
  }

  function flush() {
    if (flushing) { return flushing; }
    flushing = allEntries().then(function (entries) {
      return entries.reduce(function (previous, entry) {
        return previous.then(function () { return send(entry); });
      }, Promise.resolve()).then(function () {
        if (entries.length && window.twohgConnection) { window.twohgConnection.back(); }
      });
    }).catch(function () {
      if (window.twohgConnection) { window.twohgConnection.lost(); }
    }).then(function () {
      flushing = null;
      return showPending();
    });
    return flushing;
  }
  window.twohgOutbox = { flush: flush };

  // A newer report for a match replaces one still waiting; a second call for it is not needed.
  function enqueue(entry) {
    return allEntries().then(function (entries) {
      var same = entries.filter(function (e) { return e.kind === entry.kind && e.match === entry.match; });
      if (entry.kind === "call" && same.length) { return null; }
      return Promise.all(same.map(function (e) { return removeEntry(e.key); })).then(function () {
        return store.put(entry);
      });
    });
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    var kind = form.matches("form[data-report-match-id]") ? "report" : form.closest("#judge-call") ? "call" : null;
    if (!kind || !window.fetch || !window.URLSearchParams) { return; }
    // Before htmx's own handler: this page sends the form itself (and keeps it while offline).
    event.preventDefault();
    event.stopImmediatePropagation();
    var submitter = event.submitter;
    var data = new FormData(form);
    if (submitter && submitter.name) { data.append(submitter.name, submitter.value); }
    var key = newKey();
    data.set("idempotency_key", key);
    var fields = [];
    data.forEach(function (value, name) { fields.push([name, value]); });
    var entry = {
      key: key,
      kind: kind,
      url: form.action,
      match: kind === "report" ? form.dataset.reportMatchId : String(data.get("match")),
      label: submitter ? submitter.textContent.trim() : "",
      fields: fields,
      queuedAt: Date.now()
    };
    enqueue(entry).then(showPending).then(flush);
  }, true);

  document.addEventListener("htmx:afterSwap", showPending);
  window.addEventListener("online", flush);
  document.addEventListener("visibilitychange", function () { if (!document.hidden) { flush(); } });
  window.setInterval(function () {
    allEntries().then(function (entries) { if (entries.length) { flush(); } });
  }, RETRY_MS);
  if (!keptCopy) { showCarried(); }
  flush();
}());
