// Round clock for the projector, the judges' list and a player's table.
// The server keeps no ticking timer: it answers the clock API from stored timestamps. This script
// polls that API every few seconds and counts down locally in between, so the screen keeps running
// through a dropped request and corrects itself on the next answer. A pause freezes the count.
(function () {
  "use strict";

  var root = document.querySelector("[data-clock]");
  if (!root) {
    return;
  }

  // Translations from the JavaScript catalog (/jsi18n/, loaded before this script); English without it.
  var gettext = window.gettext || function (text) { return text; };
  var interpolate = window.interpolate || function (format, values) {
    return format.replace(/%\(\w+\)s/g, function (match) { return values[match.slice(2, -2)]; });
  };

  var POLL_MS = 4000;
  var TICK_MS = 250;
  var PROBE_EVERY = 3; // polls between checks for the next round (projector only)
  var WARNING_SECONDS = 300;

  var apiBase = root.dataset.apiBase;
  var roundNumber = parseInt(root.dataset.round, 10) || null;
  var follow = root.dataset.follow === "1";
  // Times of day are shown in the event's time zone (Tournament.time_zone, which the page
  // passes in), as the server-rendered times are, not in whatever zone the browser is set to.
  var timeZone = root.dataset.timeZone || undefined;
  var timeFormat = null;
  try {
    timeFormat = new Intl.DateTimeFormat("en-GB", { hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone: timeZone });
  } catch (error) {
    timeFormat = null; // unknown zone name: fall back to the browser's zone
  }
  var pollCount = 0;

  var STATE_LABELS = {
    not_started: gettext("Waiting for the start"),
    running: "",
    paused: gettext("Paused"),
    time_up: gettext("Time"),
    finished: gettext("Round over")
  };

  // The last answer: its payload, when it arrived (monotonic ms) and the server's wall clock then.
  // A copy of the page the phone kept (static/js/pwa.js) was rendered when it was fetched: the
  // count goes on from then, by the phone's own clock, which also stamped the fetch.
  var last = null;
  if (root.dataset.state) {
    var keptAt = Date.parse(document.documentElement.getAttribute("data-offline-as-of") || "");
    var renderedAt = Date.parse(root.dataset.now || "");
    var kept = !isNaN(keptAt) && !isNaN(renderedAt);
    last = {
      data: {
        state: root.dataset.state,
        remaining_seconds: root.dataset.remaining === "" ? null : parseInt(root.dataset.remaining, 10),
        ends_at: null,
        tables: null
      },
      receivedAt: kept ? performance.now() - Math.max(0, Date.now() - keptAt) : performance.now(),
      serverNow: kept ? renderedAt : Date.now()
    };
  }

  function pad(n) {
    return (n < 10 ? "0" : "") + n;
  }

  function formatSeconds(seconds) {
    if (seconds === null || seconds === undefined) {
      return gettext("No time limit");
    }
    seconds = Math.max(0, seconds);
    var h = Math.floor(seconds / 3600);
    var m = Math.floor((seconds % 3600) / 60);
    var s = seconds % 60;
    return h ? h + ":" + pad(m) + ":" + pad(s) : m + ":" + pad(s);
  }

  function formatTime(iso) {
    if (!iso) {
      return "";
    }
    var d = new Date(iso);
    return timeFormat ? timeFormat.format(d) : pad(d.getHours()) + ":" + pad(d.getMinutes());
  }

  function running() {
    return last && (last.data.state === "running" || last.data.state === "time_up");
  }

  function elapsedSinceAnswer() {
    return running() ? (performance.now() - last.receivedAt) / 1000 : 0;
  }

  // Round time left now: exact from the server's count, minus what ran locally since.
  function roundRemaining() {
    if (!last || last.data.remaining_seconds === null) {
      return null;
    }
    if (last.data.state !== "running") {
      return last.data.remaining_seconds;
    }
    return Math.max(0, Math.ceil(last.data.remaining_seconds - elapsedSinceAnswer()));
  }

  // A table's time left: round time plus its extensions while the round still runs (exact, no
  // clock skew); after the round's own end, its end instant against the server's clock.
  function tableRemaining(extensionMinutes, endsAtIso) {
    if (!last || last.data.remaining_seconds === null) {
      return null;
    }
    var exact = last.data.remaining_seconds - elapsedSinceAnswer();
    if (exact > 0 || !endsAtIso) {
      return Math.max(0, Math.ceil(exact + extensionMinutes * 60));
    }
    var serverNow = last.serverNow + elapsedSinceAnswer() * 1000;
    return Math.max(0, Math.ceil((Date.parse(endsAtIso) - serverNow) / 1000));
  }

  function setText(selector, text) {
    root.querySelectorAll(selector).forEach(function (el) {
      if (el.textContent !== text) {
        el.textContent = text;
      }
    });
  }

  function tableNote(row) {
    if (row.result_in) {
      return gettext("Finished: result in");
    }
    var timeCalled = row.active_team !== null || row.extra_turns_played > 0;
    if (!timeCalled) {
      if (row.extra_turns_since) {
        return interpolate(gettext("In extra turns since %(since)s · waiting for a judge to record the active team"), { since: formatTime(row.extra_turns_since) }, true);
      }
      return null;
    }
    if (row.active_team === null) {
      return gettext("Extra turns over");
    }
    return interpolate(gettext("Extra turns · team %(team)s · %(played)s of %(total)s played"), { team: row.active_team, played: row.extra_turns_played, total: row.extra_turns_total }, true);
  }

  function renderTables(tables) {
    var list = root.querySelector("[data-clock-tables]");
    if (!list || !tables) {
      return;
    }
    // A table whose result is in is finished: it leaves the end-of-round list.
    var items = tables.filter(function (row) {
      return !row.result_in && (row.extension_minutes > 0 || tableNote(row) !== null);
    });
    var fragment = document.createDocumentFragment();
    items.forEach(function (row) {
      var li = document.createElement("li");
      var note = tableNote(row);
      var waiting = note && row.active_team === null && !(row.extra_turns_played > 0);
      li.className = "clock-table" + (note && row.active_team !== null ? " in-turns" : waiting ? " waiting" : "");
      li.dataset.table = row.table;
      li.dataset.extension = row.extension_minutes;
      li.dataset.endsAt = row.ends_at || "";
      var no = document.createElement("span");
      no.className = "clock-table-no";
      no.textContent = interpolate(gettext("Table %(table)s"), { table: row.table }, true);
      li.appendChild(no);
      var info = document.createElement("span");
      info.className = "clock-table-info";
      info.textContent = note || interpolate(gettext("+%(minutes)s min · ends %(time)s"), { minutes: row.extension_minutes, time: formatTime(row.ends_at) }, true);
      li.appendChild(info);
      if (!note) {
        var left = document.createElement("span");
        left.className = "clock-table-left";
        left.setAttribute("data-table-remaining", "");
        li.appendChild(left);
      }
      fragment.appendChild(li);
    });
    list.replaceChildren(fragment);
  }

  function render() {
    if (!last) {
      return;
    }
    var state = last.data.state;
    var remaining = roundRemaining();
    var shownState = state === "running" && remaining === 0 ? "time_up" : state;
    setText("[data-clock-remaining]", formatSeconds(remaining));
    setText("[data-clock-state]", STATE_LABELS[shownState] || "");
    root.classList.remove("is-not_started", "is-running", "is-paused", "is-time_up", "is-finished", "is-warning");
    root.classList.add("is-" + shownState);
    if (shownState === "running" && remaining !== null && remaining <= WARNING_SECONDS) {
      root.classList.add("is-warning");
    }
    // Table rows may sit outside the clock's own element (the judges' list is a separate table).
    document.querySelectorAll("[data-table-row], [data-clock-tables] [data-table]").forEach(function (row) {
      var cell = row.querySelector("[data-table-remaining]");
      if (!cell || state === "not_started") {
        return;
      }
      if (row.dataset.finished === "1") {
        cell.textContent = "";
        return;
      }
      var left = tableRemaining(parseInt(row.dataset.extension || "0", 10), row.dataset.endsAt);
      cell.textContent = left === null ? "" : left > 0 ? interpolate(gettext("%(time)s left"), { time: formatSeconds(left) }, true) : gettext("time up");
    });
  }

  function applyAnswer(data, response) {
    var header = response.headers.get("Date");
    var serverNow = header ? Date.parse(header) : Date.now();
    last = { data: data, receivedAt: performance.now(), serverNow: isNaN(serverNow) ? Date.now() : serverNow };
    var endsWrap = root.querySelector("[data-clock-ends-wrap]");
    if (endsWrap) {
      endsWrap.hidden = !data.ends_at;
      setText("[data-clock-ends]", formatTime(data.ends_at));
    }
    renderTables(data.tables);
    // Keep the server-rendered rows' end instants current (a pause or extension moves them).
    (data.tables || []).forEach(function (row) {
      document.querySelectorAll('[data-table-row="' + row.table + '"]').forEach(function (el) {
        el.dataset.endsAt = row.ends_at || "";
        el.dataset.extension = row.extension_minutes;
        el.dataset.finished = row.result_in ? "1" : "0";
        var ends = el.querySelector("[data-table-ends]");
        if (ends) {
          ends.textContent = formatTime(row.ends_at);
        }
        var status = el.querySelector("[data-table-status]");
        var note = tableNote(row);
        if (status && note) {
          status.textContent = note;
        }
      });
    });
    var offline = root.querySelector("[data-clock-offline]");
    if (offline) {
      offline.hidden = true;
    }
    render();
  }

  function fetchClock(number) {
    return fetch(apiBase + number + "/clock/", { headers: { Accept: "application/json" }, credentials: "same-origin" });
  }

  // The projector moves on to the next round once that round's clock has started, so it never
  // leaves a round whose extended tables are still playing just because the next one was paired.
  function probeNextRound() {
    var next = roundNumber ? roundNumber + 1 : 1;
    return fetchClock(next).then(function (response) {
      if (!response.ok) {
        return null;
      }
      return response.json().then(function (data) {
        if (data.state === "not_started" && roundNumber) {
          return null;
        }
        roundNumber = next;
        setText("[data-clock-round]", String(next));
        applyAnswer(data, response);
        return data;
      });
    });
  }

  function poll() {
    pollCount += 1;
    var probing = follow && (!roundNumber || pollCount % PROBE_EVERY === 0);
    var work = probing ? probeNextRound() : Promise.resolve(null);
    work
      .then(function (switched) {
        if (switched || !roundNumber) {
          return null;
        }
        return fetchClock(roundNumber).then(function (response) {
          if (!response.ok) {
            throw new Error("clock answered " + response.status);
          }
          return response.json().then(function (data) {
            applyAnswer(data, response);
          });
        });
      })
      .catch(function () {
        var offline = root.querySelector("[data-clock-offline]");
        if (offline) {
          offline.hidden = false;
        }
      });
  }

  render();
  poll();
  window.setInterval(poll, POLL_MS);
  window.setInterval(render, TICK_MS);
})();
