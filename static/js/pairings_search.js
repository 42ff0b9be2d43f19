// Find-my-table: filter the pairings rows as the player types. Without JS the form's ?q= does the same on the server.
(function () {
  "use strict";

  function normalise(text) {
    return text.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase().split(/\s+/).join(" ").trim();
  }

  document.querySelectorAll("input[data-filter-table]").forEach(function (input) {
    var table = document.getElementById(input.dataset.filterTable);
    var empty = document.getElementById(input.dataset.empty);
    if (!table) {
      return;
    }
    var rows = Array.prototype.slice.call(table.tBodies[0].rows);

    function apply() {
      var query = normalise(input.value);
      var shown = 0;
      rows.forEach(function (row) {
        var match = query === "" || normalise(row.dataset.search || "").indexOf(query) !== -1;
        row.hidden = !match;
        if (match) {
          shown += 1;
        }
      });
      if (empty) {
        empty.hidden = shown > 0;
      }
    }

    input.addEventListener("input", apply);
    // A value restored by the browser (back button) filters at once.
    apply();
  });
})();
