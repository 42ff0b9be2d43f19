// Judge page: table → player → infraction → proposed penalty → confirm, in a few taps on a phone.
// The form works without this script (every choice is a plain radio button); the script narrows
// the players to the chosen table, filters the infraction list as the judge types, and asks the
// preview API for the proposed penalty whenever a choice changes, so the judge sees it before
// confirming. Nothing is saved until the form is submitted.
(function () {
  "use strict";
  // Translations from the JavaScript catalog (/jsi18n/); English without it.
  function gettext(text) { return window.gettext ? window.gettext(text) : text; }
  // Choosing another round shows it at once (the Show button does the same without this script).
  const roundSelect = document.getElementById("round-select");
  if (roundSelect) {
    roundSelect.addEventListener("change", () => roundSelect.form.submit());
    document.getElementById("round-show").hidden = true;
  }
  const form = document.getElementById("penalty-form");
  if (!form) return;

  const csrf = form.querySelector("input[name=csrfmiddlewaretoken]").value;
  const tableButtons = Array.from(form.querySelectorAll(".table-pick"));
  const playerGroups = Array.from(form.querySelectorAll(".player-group"));
  const infractions = Array.from(form.querySelectorAll("#infraction-list .infraction"));
  const proposal = document.getElementById("proposal");

  function chooseTable(matchId) {
    tableButtons.forEach((b) => b.classList.toggle("chosen", b.dataset.match === matchId));
    playerGroups.forEach((group) => {
      group.hidden = group.dataset.match !== matchId;
    });
  }

  function filter(items, query) {
    const words = query.toLowerCase().split(/\s+/).filter(Boolean);
    items.forEach((item) => {
      const text = item.dataset.search;
      item.hidden = !words.every((word) => text.includes(word));
    });
  }

  const checkedPlayer = form.querySelector("input[name=player]:checked");
  if (checkedPlayer) {
    chooseTable(checkedPlayer.closest(".player-group").dataset.match);
  } else {
    playerGroups.forEach((group) => {
      group.hidden = true;
    });
  }
  tableButtons.forEach((button) =>
    button.addEventListener("click", () => {
      chooseTable(button.dataset.match);
      const first = form.querySelector(`.player-group[data-match="${button.dataset.match}"] input`);
      if (first) first.focus();
    })
  );
  document.getElementById("table-search").addEventListener("input", (event) => {
    filter(tableButtons, event.target.value);
    const shown = tableButtons.filter((b) => !b.hidden);
    if (shown.length === 1) chooseTable(shown[0].dataset.match);
  });
  document.getElementById("infraction-search").addEventListener("input", (event) => {
    filter(infractions, event.target.value);
  });

  function body() {
    const data = new FormData(form);
    const payload = {
      player: Number(data.get("player")),
      round: Number(data.get("round")),
      infraction: data.get("infraction"),
    };
    form.querySelectorAll("input.flag").forEach((flag) => {
      payload[flag.name] = flag.checked;
    });
    if (data.get("day")) payload.day = Number(data.get("day"));
    if (data.get("minutes_late")) payload.minutes_late = Number(data.get("minutes_late"));
    if (data.get("deck_problem_upgrade")) payload.deck_problem_upgrade = data.get("deck_problem_upgrade");
    return payload;
  }

  function show(title, explanation, notes) {
    proposal.hidden = false;
    document.getElementById("proposal-penalty").textContent = title;
    document.getElementById("proposal-explanation").textContent = explanation;
    const list = document.getElementById("proposal-notes");
    list.replaceChildren(
      ...notes.map((note) => {
        const item = document.createElement("li");
        item.textContent = note;
        return item;
      })
    );
  }

  let pending = 0;
  async function preview() {
    const payload = body();
    if (!payload.player || !payload.infraction) return;
    const ticket = ++pending;
    const response = await fetch(form.dataset.previewUrl, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf },
      body: JSON.stringify(payload),
    });
    const answer = await response.json();
    if (ticket !== pending) return;
    if (response.ok) {
      show(`${gettext("Proposed:")} ${answer.penalty_name}`, answer.explanation_text, answer.notes_text);
    } else {
      show(gettext("No proposal"), answer.detail, []);
    }
  }

  form.addEventListener("change", (event) => {
    if (event.target.name === "description" || event.target.name === "deviation_reason") return;
    preview();
  });
  preview();
})();
