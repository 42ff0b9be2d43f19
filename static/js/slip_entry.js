// Entry by slip (templates/tournaments/slip_entry.html): one key per result. The page works
// without this file (the result buttons are a plain form); here 1, 2, d and i press the matching
// button, and Esc goes back to the code field for the next slip.
(function () {
  "use strict";
  var form = document.getElementById("slip-result");
  if (!form) {
    return;
  }
  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey || event.target.name === "reason") {
      return;
    }
    if (event.key === "Escape") {
      window.location.href = form.dataset.back;
      return;
    }
    var button = form.querySelector('button[data-key="' + event.key.toLowerCase() + '"]');
    if (button) {
      event.preventDefault();
      form.requestSubmit(button);
    }
  });
})();
