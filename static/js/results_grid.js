// Results grid: keyboard entry per row, saved with a PUT to the results API carrying the row's version,
// so two scorekeepers entering the same table never overwrite each other silently (the API answers 409).
(function () {
  "use strict";

  var grid = document.getElementById("results-grid");
  if (!grid) {
    return;
  }
  var csrfToken = grid.dataset.csrf;
  var pendingOnly = document.getElementById("pending-only");
  var counter = document.getElementById("results-count");
  var rows = Array.prototype.slice.call(grid.tBodies[0].rows);

  // Key -> games (left wins, right wins, drawn games), as in the rules summary 1.5 and 6.2.
  var SHORTCUTS = {
    "1": [1, 0, 0],
    "2": [0, 1, 0],
    "d": [0, 0, 1],
    "i": [0, 0, 3]
  };

  function inputs(row) {
    return {
      key: row.querySelector("input.key"),
      a: row.querySelector("input[name=team_a_wins]"),
      b: row.querySelector("input[name=team_b_wins]"),
      d: row.querySelector("input[name=draws]")
    };
  }

  function setGames(row, games) {
    var fields = inputs(row);
    fields.a.value = games[0];
    fields.b.value = games[1];
    fields.d.value = games[2];
  }

  function say(row, text, isError) {
    var message = row.querySelector(".row-message");
    message.textContent = text;
    message.className = "row-message" + (isError ? " error" : "");
  }

  // The API names the reporter by user id; a result this page just saved was reported by its user.
  function reporterText(match, savedHere) {
    var text = savedHere ? "Reported by " + grid.dataset.username : "Reported";
    return text + (match.confirmed ? ", confirmed" : ", waiting for confirmation");
  }

  function refreshCount() {
    var reported = rows.filter(function (row) { return row.dataset.reported === "1"; }).length;
    counter.textContent = reported + " of " + rows.length + " reported";
  }

  function applyFilter() {
    rows.forEach(function (row) {
      row.hidden = pendingOnly.checked && row.dataset.reported === "1";
    });
  }

  function focusNextUnreported(row) {
    var start = rows.indexOf(row);
    for (var step = 1; step <= rows.length; step += 1) {
      var candidate = rows[(start + step) % rows.length];
      if (candidate.dataset.reported !== "1" && !candidate.hidden) {
        inputs(candidate).key.focus();
        return;
      }
    }
    inputs(row).key.blur();
  }

  function showMatch(row, match, savedHere) {
    row.dataset.version = match.version;
    setGames(row, [match.team_a_wins, match.team_b_wins, match.draws]);
    row.dataset.reported = match.result_kind === "pending" ? "0" : "1";
    row.querySelector(".row-status").textContent =
      row.dataset.reported === "1" ? reporterText(match, savedHere) : "Not yet reported";
  }

  // Changing a confirmed result needs a reason for the audit log: the API answers 400 naming the
  // field "reason", and the scorekeeper is asked for one before the same result is sent again.
  function asksForReason(response, data) {
    return response.status === 400 && (data.errors || []).some(function (error) {
      return error.field === "reason";
    });
  }

  function save(row, reason) {
    var fields = inputs(row);
    var body = {
      team_a_wins: Number(fields.a.value || 0),
      team_b_wins: Number(fields.b.value || 0),
      draws: Number(fields.d.value || 0),
      version: Number(row.dataset.version)
    };
    if (reason) {
      body.reason = reason;
    }
    row.classList.remove("saved", "conflict");
    say(row, "Saving…", false);
    return fetch(row.dataset.url, {
      method: "PUT",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "Accept": "application/json", "X-CSRFToken": csrfToken },
      body: JSON.stringify(body)
    }).then(function (response) {
      return response.json().catch(function () { return {}; }).then(function (data) {
        if (response.ok) {
          showMatch(row, data, true);
          row.classList.add("saved");
          say(row, "Saved " + body.team_a_wins + "-" + body.team_b_wins + "-" + body.draws, false);
          fields.key.value = "";
          refreshCount();
          focusNextUnreported(row);
          if (pendingOnly.checked) {
            row.hidden = true;
          }
          return;
        }
        if (asksForReason(response, data) && !reason) {
          var given = window.prompt("This result is confirmed. Why change it? (kept in the audit log)");
          if (given && given.trim()) {
            return save(row, given.trim());
          }
          row.classList.add("conflict");
          say(row, "Not saved: changing a confirmed result needs a reason.", true);
          return;
        }
        if (response.status === 409 && (data.match || data.current)) {
          var current = data.match || data.current;
          showMatch(row, current, false);
          row.classList.add("conflict");
          say(row, "Someone else changed this result: it is now " + current.team_a_wins + "-" +
            current.team_b_wins + "-" + current.draws + ". Check it, then save again.", true);
          refreshCount();
          return;
        }
        row.classList.add("conflict");
        say(row, data.detail || ("Not saved (error " + response.status + ")"), true);
      });
    }).catch(function () {
      row.classList.add("conflict");
      say(row, "Not saved: no connection. Try again.", true);
    });
  }

  rows.forEach(function (row) {
    var fields = inputs(row);
    fields.key.addEventListener("keydown", function (event) {
      var key = event.key.toLowerCase();
      if (event.key === "Enter") {
        event.preventDefault();
        save(row);
      } else if (Object.prototype.hasOwnProperty.call(SHORTCUTS, key)) {
        event.preventDefault();
        fields.key.value = key.toUpperCase();
        setGames(row, SHORTCUTS[key]);
      }
    });
    [fields.a, fields.b, fields.d].forEach(function (input) {
      input.addEventListener("keydown", function (event) {
        if (event.key === "Enter") {
          event.preventDefault();
          save(row);
        }
      });
    });
  });

  pendingOnly.addEventListener("change", applyFilter);
  applyFilter();
})();
