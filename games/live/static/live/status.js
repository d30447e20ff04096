/* The lines round a live table's felt: the hand and its contract, whose turn it is, who
   has laid down, the scores, the turn's clock and the director's word. */

import { clockText, element, text, wordsFor } from "../games/cards.js";
import { isEnded, seatOrder } from "./layout.js";

export function turnText(msg, players, v, mine) {
  // the line that says whose turn it is and what it asks for (``mine``: the viewer's
  // turn, with nothing of theirs awaiting the server's answer)
  if (v.is_over) {
    return msg.game_over;
  }
  if (isEnded(v)) {
    return msg.table_ended;
  }
  if (!mine) {
    return text(msg.waiting_for, { player: players[v.to_move] });
  }
  if (v.pending && v.pending.length) {
    return text(msg.your_turn_pending, { cards: v.pending.map((p) => wordsFor(msg, players).cardLabel(p[0])).join(", ") });
  }
  return v.phase === "draw" ? msg.your_turn_draw : msg.your_turn_play;
}

export function finalText(msg, v) {
  // how a game ended, the winner's total first: the lower total wins (R9.2)
  if (v.winner === null) {
    return text(msg.drawn, { score_a: v.totals[0], score_b: v.totals[1] });
  }
  return text(msg.won, { team: msg.teams[v.winner], won: v.totals[v.winner],
    lost: v.totals[1 - v.winner] });
}

/* The status of one table. ``t``: the page (q, msg, config) and the state (read: view). */
export function makeStatus(t) {
  const { msg, config, state } = t;
  const players = config.players;
  let deadlineTimer = null;

  function renderTurn(mine, myTurn) {
    const v = state.view;
    t.q("[data-hand-no]").textContent = text(msg.hand_no, { hand: v.hand_no, hands: config.hands });
    t.q("[data-contract]").textContent = msg.contracts[String(v.hand_no)];
    const turn = t.q("[data-turn]");
    turn.textContent = turnText(msg, players, v, mine);
    turn.classList.toggle("mine", myTurn);
    const down = seatOrder(config.seat).filter((seat) => v.contract_down[seat]);
    t.q("[data-down]").textContent = down.length ? text(msg.down_list, {
      players: down.map((seat) => players[seat]).join(", ") }) : msg.down_none;
  }

  function renderScores() {
    const v = state.view;
    [0, 1].forEach((team) => {
      t.q('[data-total="' + team + '"]').textContent = String(v.totals[team]);
    });
    const body = t.q("[data-scores]");
    body.textContent = "";
    v.scores.forEach((scores, i) => {
      const row = element("tr");
      const head = element("th", "", String(i + 1));
      head.scope = "row";
      row.appendChild(head);
      scores.forEach((score) => row.appendChild(element("td", "", String(score))));
      body.appendChild(row);
    });
  }

  function renderDeadline() {
    const v = state.view;
    const box = t.q("[data-deadline]");
    if (deadlineTimer !== null) {
      window.clearInterval(deadlineTimer);
      deadlineTimer = null;
    }
    box.hidden = !v.deadline || isEnded(v);
    if (box.hidden) {
      return;
    }
    const clock = t.q(".to-move .seat-clock");
    function show(seconds) {
      box.textContent = text(msg.time_left, { time: clockText(seconds) });
      if (clock) {
        clock.textContent = " " + clockText(seconds);
      }
    }
    if (v.paused) { // the clock stands while the director has the table paused
      show(v.time_left);
      return;
    }
    // counted from the time left the server gave, so a client's wrong clock does not matter
    const end = Date.now() + 1000 * v.time_left;
    const tick = () => show((end - Date.now()) / 1000);
    tick();
    deadlineTimer = window.setInterval(tick, 1000);
  }

  function renderDirector() {
    const v = state.view;
    t.q("[data-paused]").hidden = !v.paused || isEnded(v);
    const note = t.q("[data-director-message]");
    note.hidden = !v.message;
    note.textContent = v.message ? text(msg.director_says, { message: v.message }) : "";
  }

  return { renderTurn, renderScores, renderDeadline, renderDirector };
}
