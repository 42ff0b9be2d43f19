// Decklist paste box: live feedback from the preview API while typing (debounced), save
// through the submit API. Errors carry line numbers; a suggestion button fixes the line.
(function () {
  "use strict";
  var box = document.querySelector("section.paste");
  if (!box) return;
  var textarea = box.querySelector("textarea");
  var feedback = box.querySelector(".feedback");
  var teamFeedback = box.querySelector(".team-feedback");
  var status = box.querySelector(".status");
  var csrf = document.querySelector("input[name=csrfmiddlewaretoken]").value;
  var player = Number(box.dataset.player);
  var timer = null;
  var sequence = 0;

  function post(url, body) {
    return fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf },
      body: JSON.stringify(body),
    }).then(function (response) {
      return response.json().then(function (data) { return { ok: response.ok, data: data }; });
    });
  }

  function replaceName(line, wrong, right) {
    var lines = textarea.value.split("\n");
    if (line >= 1 && line <= lines.length) {
      lines[line - 1] = lines[line - 1].replace(wrong, right);
      textarea.value = lines.join("\n");
      schedule();
    }
  }

  function item(error) {
    var li = document.createElement("li");
    if (error.line && error.message.indexOf("Line ") !== 0) {
      var where = document.createElement("span");
      where.className = "line";
      where.textContent = "Line " + error.line + ": ";
      li.appendChild(where);
    }
    li.appendChild(document.createTextNode(error.message));
    (error.suggestions || []).forEach(function (name) {
      var button = document.createElement("button");
      button.type = "button";
      button.className = "suggestion link";
      button.textContent = "use " + name;
      button.addEventListener("click", function () { replaceName(error.line, error.card, name); });
      li.appendChild(button);
    });
    return li;
  }

  function show(list, errors) {
    list.replaceChildren.apply(list, (errors || []).map(item));
  }

  function preview() {
    var mine = ++sequence;
    post(box.dataset.previewUrl, { text: textarea.value, player: player }).then(function (result) {
      if (mine !== sequence) return;
      if (!result.ok) {
        show(feedback, result.data.errors && result.data.errors.length ? result.data.errors : [{ message: result.data.detail }]);
        show(teamFeedback, []);
        status.textContent = "";
        return;
      }
      show(feedback, result.data.errors);
      show(teamFeedback, result.data.team_errors);
      var total = result.data.cards.reduce(function (sum, card) { return sum + card.count; }, 0);
      status.textContent = total + " cards" + (result.data.valid ? ", valid on its own" : "");
    });
  }

  function schedule() {
    clearTimeout(timer);
    timer = setTimeout(preview, 400);
  }

  textarea.addEventListener("input", schedule);
  box.querySelector("button.save").addEventListener("click", function () {
    status.textContent = "Saving…";
    post(box.dataset.submitUrl, { text: textarea.value, player: player }).then(function (result) {
      if (result.ok) {
        window.location.reload();
      } else {
        status.textContent = result.data.detail || "Not saved.";
      }
    });
  });
  if (textarea.value.trim()) preview();
})();
