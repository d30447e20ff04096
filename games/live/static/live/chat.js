/* A live table's chat panel (templates/live/_chat.html; the server's side is
   games/live/chat.py). The page reads one channel: the players' own at a seat, the
   spectators' elsewhere (and the players read the spectators' once the game is over: the
   server sends what a connection may read, nothing else). It sends {"type": "chat",
   "id", "text"} and {"type": "report", "id", "message": a line's id}; the server answers
   {"type": "chat", "id", "lines"} (on connecting, "all": the lines so far), "reported",
   or an error naming the field.

   A line's text is shown as text (textContent), never as markup. A mute is this
   browser's: the people muted (by user id, with their name) are kept in localStorage,
   so a mute holds on every table's page here and tells nobody, the muted person least. */

import { element, text } from "../games/cards.js";
import { store, stored } from "./panels.js";

const MUTED_KEY = "push-chat-muted";

/* The people muted, {user id: name}, from what localStorage holds (anything unreadable:
   nobody). */
export function readMuted(saved) {
  try {
    const muted = JSON.parse(saved || "{}");
    return muted && typeof muted === "object" && !Array.isArray(muted) ? muted : {};
  } catch {
    return {};
  }
}

/* The name a line is said under: the seat's at the table, else the spectator's own. */
export function speaker(line, players) {
  return line.seat === null || line.seat === undefined ? line.name : players[line.seat];
}

/* The chat of one table. ``t``: the page (q, msg, config); ``on``: send(message), newId(). */
export function makeChat(t, on) {
  const { msg, config } = t;
  const list = t.q("[data-chat-lines]");
  const box = t.q("[data-chat-box]");
  const form = t.q("[data-chat-form]");
  const input = t.q("[data-chat-text]");
  const error = t.q("[data-chat-error]");
  const mutedBox = t.q("[data-chat-muted]");
  const asked = {}; // id -> "chat" or "report": the messages awaiting their answer
  let muted = readMuted(stored(MUTED_KEY, "{}"));
  let lines = [];

  function say(words) {
    if (error) {
      error.textContent = words;
    }
  }

  function lineItem(line) {
    const name = speaker(line, config.players);
    const item = element("li", "chat-line");
    item.setAttribute("data-line", String(line.id));
    item.appendChild(element("span", "chat-name", name));
    item.appendChild(document.createTextNode(": "));
    item.appendChild(element("span", "chat-text", line.text));
    if (config.me !== null && line.author !== config.me) {
      const mute = element("button", "", msg.chat_mute);
      mute.type = "button";
      mute.setAttribute("data-chat-mute", String(line.author));
      mute.setAttribute("data-name", name);
      mute.setAttribute("aria-label", text(msg.chat_mute_label, { name }));
      const report = element("button", "", msg.chat_report);
      report.type = "button";
      report.setAttribute("data-chat-report", String(line.id));
      report.setAttribute("aria-label", text(msg.chat_report_label, { name }));
      item.appendChild(mute);
      item.appendChild(report);
    }
    return item;
  }

  function render() {
    if (!list) {
      return;
    }
    const atEnd = box.scrollTop + box.clientHeight >= box.scrollHeight - 4;
    list.textContent = "";
    lines.filter((line) => !(String(line.author) in muted))
      .forEach((line) => list.appendChild(lineItem(line)));
    if (atEnd) {
      box.scrollTop = box.scrollHeight;
    }
    const names = Object.keys(muted);
    mutedBox.hidden = names.length === 0;
    mutedBox.textContent = names.length ? msg.chat_muted + " " : "";
    names.forEach((author) => {
      const unmute = element("button", "", text(msg.chat_unmute, { name: muted[author] }));
      unmute.type = "button";
      unmute.setAttribute("data-chat-unmute", author);
      mutedBox.appendChild(unmute);
    });
  }

  function setMuted(author, name) {
    if (name === null) {
      delete muted[author];
    } else {
      muted[author] = name;
    }
    store(MUTED_KEY, JSON.stringify(muted));
    render();
  }

  function receive(message) {
    if (message.type === "reported") {
      delete asked[message.id];
      say(msg.chat_reported);
      return;
    }
    if (message.id && asked[message.id]) {
      delete asked[message.id];
      if (input) {
        input.value = "";
      }
      say("");
    }
    const known = {};
    const next = message.all ? [] : lines;
    next.forEach((line) => { known[line.id] = true; });
    lines = next.concat((message.lines || []).filter((line) => !known[line.id]));
    render();
  }

  function refused(message) {
    // an error answering one of the chat's messages: said under the chat; whether it was
    if (!message.id || !asked[message.id]) {
      return false;
    }
    delete asked[message.id];
    say(text(msg.chat_refused, { message: message.message }));
    return true;
  }

  function ask(kind, fields) {
    const id = on.newId();
    asked[id] = kind;
    on.send({ type: kind, id, ...fields });
  }

  if (form) {
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      ask("chat", { text: input.value });
    });
  }
  if (list) {
    const panel = t.q("[data-chat]");
    panel.addEventListener("click", (event) => {
      const button = event.target.closest("button");
      if (!button) {
        return;
      }
      if (button.hasAttribute("data-chat-mute")) {
        setMuted(button.getAttribute("data-chat-mute"), button.getAttribute("data-name"));
      } else if (button.hasAttribute("data-chat-unmute")) {
        setMuted(button.getAttribute("data-chat-unmute"), null);
      } else if (button.hasAttribute("data-chat-report")) {
        ask("report", { message: parseInt(button.getAttribute("data-chat-report"), 10) });
      }
    });
  }
  window.addEventListener("storage", (event) => {
    if (event.key === MUTED_KEY) { // muted on another of this browser's tables
      muted = readMuted(event.newValue);
      render();
    }
  });

  return { receive, refused };
}
