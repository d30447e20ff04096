/* A live table's websocket: connects, reconnects with a growing pause, and keeps the
   player's moves until the server acknowledges them. A move ({"type": "act", "action":
   <a move's text>, "id": <unique>}) is resent with the same id after a reconnection
   until acknowledged, so it counts once (consumers.py has the protocol). */

let counter = 0;

export function newId() {
  // unique across this page's connections and its reloads: "c", then letters and digits
  counter += 1;
  return "c" + Date.now().toString(36) + Math.random().toString(36).slice(2, 8) + counter;
}

/* A connection to ``address`` (the table's websocket path). ``on``: opened() after each
   connection (the first and every reconnection), message(data), closed(). */
export function connect(address, on) {
  let socket = null;
  let retries = 0;
  const outbox = {}; // id -> an act message not yet answered (resent after a reconnect)

  function send(message) {
    if (socket && socket.readyState === WebSocket.OPEN) {
      socket.send(JSON.stringify(message));
    }
  }

  function open() {
    const scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
    socket = new WebSocket(scheme + window.location.host + address);
    socket.onopen = () => {
      retries = 0;
      on.opened();
      Object.keys(outbox).forEach((id) => send(outbox[id]));
    };
    socket.onmessage = (event) => on.message(JSON.parse(event.data));
    socket.onclose = () => {
      socket = null;
      on.closed();
      retries += 1;
      window.setTimeout(open, Math.min(10000, 250 * Math.pow(2, retries)));
    };
  }

  function act(text) {
    // send a move; its id, by which the server's answer names it
    const id = newId();
    outbox[id] = { type: "act", action: text, id };
    send(outbox[id]);
    return id;
  }

  function settled(id) {
    // the server answered the move sent with this id (logged, or refused): it is sent no
    // more; whether it was waiting
    const was = id in outbox;
    delete outbox[id];
    return was;
  }

  open();
  return { send, act, settled, busy: () => Object.keys(outbox).length > 0 };
}
