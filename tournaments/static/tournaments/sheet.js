// The phone score sheet (templates/tournaments/score_sheet.html): tapping who went out in a
// hand fills their team's 0 (R9.1) and the running totals follow every keystroke. Only a
// help while typing: the server checks the whole sheet again (services.match_submit_score_sheet).
"use strict";
(function () {
  const form = document.querySelector("form.sheet");
  if (!form) {
    return;
  }
  const points = function (input) {
    const text = input.value.trim();
    return /^[0-9]{1,4}$/.test(text) ? parseInt(text, 10) : 0;
  };
  const update = function () {
    const sums = [0, 0];
    form.querySelectorAll(".sheet-hand").forEach(function (hand) {
      hand.querySelectorAll("input[data-team-score]").forEach(function (input) {
        sums[Number(input.dataset.teamScore)] += points(input);
      });
      hand.querySelectorAll("output[data-running]").forEach(function (output) {
        output.value = String(sums[Number(output.dataset.running)]);
      });
    });
    form.querySelectorAll("output[data-total]").forEach(function (output) {
      output.value = String(sums[Number(output.dataset.total)]);
    });
  };
  const wentOut = function (radio) {
    const hand = radio.closest(".sheet-hand");
    hand.querySelectorAll("input[data-team-score]").forEach(function (input) {
      const out = input.dataset.teamScore === radio.dataset.team;
      if (out) {
        input.value = "0";
      }
      input.readOnly = out;
    });
  };
  form.addEventListener("input", update);
  form.addEventListener("change", function (event) {
    if (event.target.matches("input[type=radio]")) {
      wentOut(event.target);
      update();
    }
  });
  form.querySelectorAll("input[type=radio]:checked").forEach(wentOut);
  form.querySelectorAll(".running, .sheet-totals").forEach(function (line) {
    line.hidden = false;
  });
  update();
})();
