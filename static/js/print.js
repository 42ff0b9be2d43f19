// Print panel: poll each unfinished job and move its progress bar; link the PDF when done.
(function () {
  "use strict";
  var POLL_MS = 1000;
  // Translations from the JavaScript catalog (/jsi18n/); English without it.
  function gettext(text) { return window.gettext ? window.gettext(text) : text; }
  function interpolate(format, values) {
    return format.replace(/%\(\w+\)s/g, function (match) { return values[match.slice(2, -2)]; });
  }

  function update(row, job) {
    row.dataset.status = job.status;
    row.querySelector("progress").value = job.progress;
    row.querySelector(".job-status").textContent = job.status === "done" ? gettext("Ready") : job.status;
    var action = row.querySelector(".job-action");
    if (job.status === "done" && job.url) {
      action.textContent = "";
      var link = document.createElement("a");
      link.href = job.url;
      link.target = "_blank";
      link.textContent = gettext("Download PDF") + (job.page_count ? " " + interpolate(gettext("(%(pages)s p.)"), { pages: job.page_count }) : "");
      action.appendChild(link);
    } else if (job.status === "failed") {
      action.textContent = job.error + " " + gettext("(reload to retry)");
    } else if (job.retryable) {
      action.textContent = gettext("Stuck: its worker stopped (reload to retry)");
    }
  }

  function poll(row) {
    fetch(row.dataset.statusUrl, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (job) {
        if (!job) { return; }
        update(row, job);
        if ((job.status === "pending" || job.status === "running") && !job.retryable) {
          window.setTimeout(function () { poll(row); }, POLL_MS);
        }
      });
  }

  document.querySelectorAll("tr[data-job]").forEach(function (row) {
    if (row.dataset.status === "pending" || row.dataset.status === "running") { poll(row); }
  });
})();
