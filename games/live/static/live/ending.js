/* A seat holder's ways out of a practice or friends' table (templates/live/table.html,
   where the page offers them): resigning the game and leaving the table to a bot, each
   asked first in a dialog, and, once the game is over, the rematch: offering it, or
   accepting the one the others see offered. Each is a message {"type": "resign" |
   "leave" | "rematch", "id"}, answered {"type": "done", "url"}: the page goes to ``url``
   (the tables' list after leaving, the rematch's table or its waiting page), or stays. */

import { text } from "../games/cards.js";

/* ``t``: the page (q, msg, config, state); ``on``: send(message), newId(). */
export function makeEnding(t, on) {
  const { msg, config, state } = t;
  const players = config.players;
  const asked = {}; // the ids of the messages sent from here, until answered

  function ask(what) {
    const id = on.newId();
    asked[id] = what;
    on.send({ type: what, id });
  }

  function done(message) {
    // the server's "done": whether it answered one of ours
    if (!(message.id in asked)) {
      return false;
    }
    delete asked[message.id];
    if (message.url) {
      window.location.assign(message.url);
    }
    return true;
  }

  function refused(message) {
    // an error answering one of ours: no longer waited for (the page says it as any other)
    delete asked[message.id];
  }

  function renderResigned(v) {
    const box = t.q("[data-resigned]");
    box.hidden = v.status !== "resigned";
    if (!box.hidden) {
      t.q("[data-resigned-text]").textContent = text(msg.resigned_by,
        { player: players[v.resigned] });
    }
  }

  function renderRematch(v) {
    const box = t.q("[data-rematch]");
    const offer = v.rematch;
    box.hidden = !(v.is_over || v.status === "resigned");
    if (box.hidden) {
      return;
    }
    const mine = offer && offer.by === config.seat;
    const waiting = offer ? offer.waiting.map((seat) => players[seat]) : [];
    const alone = config.humans.filter(Boolean).length < 2; // a practice table's opens at once
    let words = alone ? msg.rematch_none_alone : msg.rematch_none;
    if (offer && offer.table !== null) {
      words = msg.rematch_started;
    } else if (offer && offer.ended) {
      words = msg.rematch_ended;
    } else if (offer && offer.waiting.indexOf(config.seat) >= 0) {
      words = text(msg.rematch_offered, { player: players[offer.by] });
    } else if (offer) {
      words = text(mine ? msg.rematch_waiting_mine : msg.rematch_waiting,
        { player: players[offer.by], players: waiting.join(", ") });
    }
    t.q("[data-rematch-text]").textContent = words;
    const open = !offer || (offer.table === null && !offer.ended);
    t.q('[data-quit="rematch"]').hidden = !open || Boolean(offer);
    t.q('[data-quit="accept"]').hidden = !(open && offer && offer.waiting.indexOf(config.seat) >= 0);
    // to the rematch once it has started; before, the one who offered it to its waiting
    // page (which starts it, bots in the seats not taken)
    const link = t.q("[data-rematch-link]");
    const url = offer && (offer.table !== null ? offer.url : mine && open ? offer.waiting_url : null);
    link.hidden = !url;
    if (url) {
      link.href = url;
    }
  }

  function render() {
    const v = state.view;
    const tools = t.q("[data-quit-tools]");
    if (!tools) {
      return; // a spectator, or a tournament's table: none of it
    }
    tools.hidden = v.status !== "playing";
    renderResigned(v);
    renderRematch(v);
  }

  function confirmed(what) {
    const dialog = t.q('[data-confirm-quit="' + what + '"]');
    dialog.showModal();
    dialog.querySelector('[data-quit-answer="no"]').focus();
  }

  t.root.addEventListener("click", (event) => {
    const button = event.target.closest("[data-quit], [data-quit-answer]");
    if (!button || state.view === null) {
      return;
    }
    const dialog = button.closest("dialog");
    if (dialog) {
      dialog.close();
      const what = dialog.getAttribute("data-confirm-quit");
      if (button.getAttribute("data-quit-answer") === "yes") {
        ask(what);
      } else {
        t.q('[data-quit="' + what + '"]').focus();
      }
      return;
    }
    const what = button.getAttribute("data-quit");
    if (what === "resign" || what === "leave") {
      confirmed(what);
    } else {
      ask("rematch"); // offering it and accepting it are the same request
    }
  });

  return { render, done, refused };
}
