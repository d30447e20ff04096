/* The lines round a live table's felt: the hand and its contract, whose turn it is, who
   has laid down, the scores, the turn's clock and the director's word. */

import { clockText, element, text, wordsFor } from "../games/cards.js";
import { clockAt, WARNING_SECONDS } from "./clock.js";
import { isEnded, seatOrder } from "./layout.js";

export function turnText(msg, players, v, mine) {
  // the line that says whose turn it is and what it asks for (``mine``: the viewer's
  // turn, with nothing of theirs awaiting the server's answer)
  if (v.is_over) {
    return msg.game_over;
  }
  if (v.status === "resigned") {
    return text(msg.resigned_by, { player: players[v.resigned] });
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
    // the turn's own countdown and the mover's reserve apart (clock.js), each counted from
    // what the server said was left, so a client's wrong clock does not matter
    const v = state.view;
    const box = t.q("[data-deadline]");
    if (deadlineTimer !== null) {
      window.clearInterval(deadlineTimer);
      deadlineTimer = null;
    }
    box.hidden = !v.deadline || isEnded(v) || v.turn_left === null;
    const alarm = t.q("[data-clock-warning]");
    alarm.hidden = true;
    if (box.hidden) {
      return;
    }
    box.textContent = "";
    const turnBox = box.appendChild(element("span", "turn-clock"));
    turnBox.setAttribute("data-turn-clock", "");
    let reserveBox = null;
    if (v.reserve_left !== null) {
      box.appendChild(document.createTextNode(" \u00b7 "));
      reserveBox = box.appendChild(element("span", "reserve-clock"));
      reserveBox.setAttribute("data-reserve-clock", "");
    }
    const clock = t.q(".to-move .seat-clock");
    const seatReserve = t.q(".to-move .seat-reserve");
    const mine = config.seat !== null && v.to_move === config.seat;
    let warned = null;
    function show(elapsed) {
      const now = clockAt(v.turn_left, v.reserve_left, elapsed);
      turnBox.textContent = text(msg.clock_turn, { time: clockText(now.turn) });
      turnBox.classList.toggle("warning", now.warning === "turn");
      if (reserveBox) {
        reserveBox.textContent = text(msg.clock_reserve, { time: clockText(now.reserve) });
        reserveBox.classList.toggle("warning", now.warning === "reserve");
      }
      if (clock) { // on the seat: the turn's time, then the reserve's
        clock.textContent = " " + clockText(now.turn || now.reserve || 0);
        clock.classList.toggle("warning", now.warning !== null);
      }
      if (seatReserve && now.reserve !== null) {
        seatReserve.textContent = text(msg.reserve, { time: clockText(now.reserve) });
      }
      if (now.warning !== warned) { // said once as it begins, not every second
        warned = now.warning;
        alarm.hidden = !(mine && warned);
        alarm.textContent = !alarm.hidden ? text(warned === "reserve" ? msg.clock_warning_reserve
          : now.reserve ? msg.clock_warning_turn_reserve : msg.clock_warning_turn,
        { seconds: WARNING_SECONDS }) : "";
      }
    }
    if (v.paused) { // the clock stands while the director has the table paused
      show(0);
      return;
    }
    const start = Date.now();
    const tick = () => show((Date.now() - start) / 1000);
    tick();
    deadlineTimer = window.setInterval(tick, 250);
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
