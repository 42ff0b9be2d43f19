// Decklist paste boxes: plain forms that post to the page without JavaScript; with it, live
// feedback from the preview API while typing (debounced), saved through the submit API. A Limited team's pool: saved through the pool
// API, whose stored errors the reloaded page shows. Errors name the line number and its text; a
// suggestion button fixes the line.
(function () {
  "use strict";
  // Translations from the JavaScript catalog (/jsi18n/); English without it.
  function gettext(text) { return window.gettext ? window.gettext(text) : text; }
  function interpolate(format, values) {
    return format.replace(/%\(\w+\)s/g, function (match) { return values[match.slice(2, -2)]; });
  }
  var token = document.querySelector("input[name=csrfmiddlewaretoken]");
  if (!token) return;
  var csrf = token.value;

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

  // "Line 3: «4 Lightnig Bolt» — unknown card …", as the team page says it (line_error_text in
  // decklists/selectors.py): the message's own "Line 3" opening (in the page's language, or the
  // English of an older list) is not repeated.
  function item(error, textarea, changed) {
    var li = document.createElement("li");
    var message = error.message || "";
    if (error.line) {
      var opening = interpolate(gettext("Line %(line)s: "), { line: error.line });
      message = message.indexOf(opening) === 0
        ? message.slice(opening.length)
        : message.replace(/^Line \d+\s*:?\s*/, "");
      var where = document.createElement("span");
      where.className = "line";
      where.textContent = opening;
      li.appendChild(where);
      if (error.line_text) {
        var quoted = document.createElement("span");
        quoted.className = "line-text";
        quoted.textContent = "«" + error.line_text + "»";
        li.appendChild(quoted);
        li.appendChild(document.createTextNode(" — "));
      }
    }
    li.appendChild(document.createTextNode(message));
    (error.suggestions || []).forEach(function (name) {
      var button = document.createElement("button");
      button.type = "button";
      button.className = "suggestion link";
      button.textContent = interpolate(gettext("use %(name)s"), { name: name });
      button.addEventListener("click", function () {
        var lines = textarea.value.split("\n");
        if (error.line >= 1 && error.line <= lines.length) {
          lines[error.line - 1] = lines[error.line - 1].replace(error.card, name);
          textarea.value = lines.join("\n");
          changed();
        }
      });
      li.appendChild(button);
    });
    return li;
  }

  function refusal(data) {
    return data.errors && data.errors.length ? data.errors : [{ message: data.detail }];
  }

  function deckBox(box) {
    var textarea = box.querySelector("textarea");
    var feedback = box.querySelector(".feedback");
    var teamFeedback = box.querySelector(".team-feedback");
    var status = box.querySelector(".status");
    var player = Number(box.dataset.player);
    var timer = null;
    var sequence = 0;

    function show(list, errors) {
      list.replaceChildren.apply(list, (errors || []).map(function (error) { return item(error, textarea, schedule); }));
    }

    function preview() {
      var mine = ++sequence;
      post(box.dataset.previewUrl, { text: textarea.value, player: player }).then(function (result) {
        if (mine !== sequence) return;
        if (!result.ok) {
          show(feedback, refusal(result.data));
          show(teamFeedback, []);
          status.textContent = "";
          return;
        }
        show(feedback, result.data.errors);
        show(teamFeedback, result.data.team_errors);
        var total = result.data.cards.reduce(function (sum, card) { return sum + card.count; }, 0);
        status.textContent = interpolate(
          result.data.valid ? gettext("%(count)s cards, valid on its own") : gettext("%(count)s cards"),
          { count: total });
      });
    }

    function schedule() {
      clearTimeout(timer);
      timer = setTimeout(preview, 400);
    }

    textarea.addEventListener("input", schedule);
    box.addEventListener("submit", function (event) {
      event.preventDefault();
      status.textContent = gettext("Saving…");
      post(box.dataset.submitUrl, { text: textarea.value, player: player }).then(function (result) {
        if (result.ok) {
          window.location.reload();
        } else {
          status.textContent = result.data.detail || gettext("Not saved.");
        }
      });
    });
    if (textarea.value.trim()) preview();
  }

  function poolBox(box) {
    var textarea = box.querySelector("textarea");
    var boosters = box.querySelector("input[name=boosters]");
    var feedback = box.querySelector(".feedback");
    var status = box.querySelector(".status");

    box.addEventListener("submit", function (event) {
      event.preventDefault();
      status.textContent = gettext("Saving…");
      var body = { text: textarea.value, boosters: boosters.value ? Number(boosters.value) : null };
      post(box.dataset.submitUrl, body).then(function (result) {
        if (result.ok) {
          window.location.reload();
        } else {
          status.textContent = result.data.detail || gettext("Not saved.");
          feedback.replaceChildren.apply(feedback, refusal(result.data).map(function (error) {
            return item(error, textarea, function () {});
          }));
        }
      });
    });
  }

  document.querySelectorAll("form.paste").forEach(deckBox);
  document.querySelectorAll("form.pool-paste").forEach(poolBox);
})();
