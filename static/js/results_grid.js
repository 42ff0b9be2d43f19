// Results grid, on top of the plain per-table forms (which work without JS): keyboard keys choose the
// result, Enter submits the form through htmx, which swaps in the row the server answers with (a
// stale version comes back as a 409 row showing the current result), then focus moves on.
(function () {
  "use strict";

  var grid = document.getElementById("results-grid");
  if (!grid) {
    return;
  }
  var pendingOnly = document.getElementById("pending-only");
  // Key -> the form's result value (docs/rules.md#match-results and #result-slips); a playoff row (data-no-draw) has no draw.
  var KEYS = { "1": "a", "2": "b", "d": "draw", "i": "id" };
  var DRAWS = { "d": true, "i": true };

  function rows() {
    return Array.prototype.slice.call(grid.querySelectorAll("form.result-row"));
  }

  function enhance(row) {
    var key = row.querySelector("input.key");
    if (key) {
      key.hidden = false;
    }
    if (pendingOnly && pendingOnly.checked && row.dataset.reported === "1") {
      row.hidden = true;
    }
  }

  function focusNextUnreported(row) {
    var all = rows();
    var start = all.findIndex(function (candidate) { return candidate.id === row.id; });
    for (var step = 1; step <= all.length; step += 1) {
      var candidate = all[(start + step) % all.length];
      if (candidate.dataset.reported !== "1" && !candidate.hidden) {
        candidate.querySelector("input.key").focus();
        return;
      }
    }
  }

  grid.addEventListener("keydown", function (event) {
    var row = event.target.closest("form.result-row");
    if (!row) {
      return;
    }
    var letter = event.key.toLowerCase();
    if (event.key === "Enter") {
      event.preventDefault();
      row.requestSubmit();
    } else if (event.target.matches("input.key") && Object.prototype.hasOwnProperty.call(KEYS, letter)) {
      if (DRAWS[letter] && event.target.hasAttribute("data-no-draw")) {
        event.preventDefault();
        return;
      }
      event.preventDefault();
      event.target.value = letter.toUpperCase();
      row.querySelector("select[name=result]").value = KEYS[letter];
    }
  });

  // htmx:load fires for each row htmx swaps in: a saved row hands the focus to the next table.
  document.body.addEventListener("htmx:load", function (event) {
    var row = event.detail.elt;
    if (!row.matches || !row.matches("form.result-row")) {
      return;
    }
    var saved = row.classList.contains("saved");
    enhance(row);
    var reason = row.querySelector("input[name=reason]");
    if (saved) {
      focusNextUnreported(row);
    } else if (reason && row.querySelector("input.key").value) {
      // Refused for want of a reason: the chosen result stays; the reason is what is missing.
      reason.focus();
    } else {
      row.querySelector("input.key").focus();
    }
  });

  if (pendingOnly) {
    pendingOnly.addEventListener("change", function () {
      rows().forEach(function (row) {
        row.hidden = pendingOnly.checked && row.dataset.reported === "1";
      });
    });
  }
  rows().forEach(enhance);
})();
