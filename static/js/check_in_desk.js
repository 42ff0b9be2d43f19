// The check-in desk on the manage page (templates/tournaments/manage.html): the code form posts
// in the background, says which team is checked in, marks its row and clears the field for the
// next code (a USB scanner types the code and presses Enter). Without this file the form posts
// and the page reloads.
(function () {
  "use strict";
  var form = document.querySelector("form[data-check-in-code]");
  if (!form) return;
  var field = form.querySelector("input[name=code]");
  var status = form.querySelector("[role=status]");

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    var body = new FormData(form);
    field.value = "";
    field.focus();
    fetch(form.action, {
      method: "POST",
      credentials: "same-origin",
      headers: { Accept: "application/json" },
      body: body,
    }).then(function (response) {
      return response.json().then(function (data) { return { ok: response.ok, data: data }; });
    }).then(function (result) {
      status.textContent = result.data.detail || "";
      status.classList.toggle("error", !result.ok);
      if (!result.ok) return;
      var mark = document.querySelector('[data-not-checked-in="' + result.data.team + '"]');
      if (mark) {
        mark.textContent = result.data.state;
        mark.classList.remove("muted");
        mark.setAttribute("data-checked-in", result.data.team);
        mark.removeAttribute("data-not-checked-in");
        var tick = document.querySelector('input[form=check-in-present][value="' + result.data.team + '"]');
        if (tick) tick.closest("label").remove();
      }
    });
  });
})();
