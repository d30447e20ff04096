// The tournament form (admin) shows only the settings the chosen format reads: a round
// robin no knockout tie rule, a knockout no points or tie-breaks. The settings each
// format reads come from the page (#format-settings, from the format registry); the
// server ignores the others whatever is posted (TournamentForm.clean), so hiding them
// changes nothing that is stored.
(function () {
  "use strict";
  const data = document.getElementById("format-settings");
  const select = document.getElementById("id_format");
  if (!data || !select) {
    return;
  }
  const settings = JSON.parse(data.textContent);

  function show() {
    const reads = new Set(settings.formats[select.value] || settings.optional);
    for (const name of settings.optional) {
      for (const row of document.querySelectorAll(".form-row.field-" + name)) {
        row.classList.toggle("hidden", !reads.has(name));
      }
    }
    // a fieldset of settings left with none to show (a knockout's scoring) goes too
    for (const fieldset of document.querySelectorAll("fieldset.module")) {
      const rows = Array.from(fieldset.querySelectorAll("div.form-row"));
      const optional = rows.some((row) =>
        settings.optional.some((name) => row.classList.contains("field-" + name)));
      if (optional) {
        fieldset.classList.toggle("hidden", rows.every((row) => row.classList.contains("hidden")));
      }
    }
  }

  select.addEventListener("change", show);
  show();
})();
