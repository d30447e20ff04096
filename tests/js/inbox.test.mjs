// The header's notifications on every logged-in page (tournaments/static/tournaments/
// inbox.js): the websocket's count and notices shown, a ready table shown prominently,
// a dropped connection opened again and a refusal left alone. The script runs as the
// browser runs it (a classic script reading its own tag), against a page and a socket
// played here.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import vm from "node:vm";

const SOURCE = readFileSync(new URL("../../tournaments/static/tournaments/inbox.js",
  import.meta.url), "utf8");

class FakeElement {
  constructor(tag) {
    this.tagName = tag;
    this.children = [];
    this.hidden = true;
    this.text = "";
    this.classes = new Set();
    this.classList = {
      toggle: (name, on) => (on ? this.classes.add(name) : this.classes.delete(name)),
    };
  }

  get textContent() {
    return this.text + this.children.map((c) => c.textContent).join("");
  }

  set textContent(words) {
    this.text = words;
    this.children = [];
  }

  querySelector() {
    return null; // the count's hidden label is not played here
  }

  appendChild(child) {
    this.children.push(child);
    return child;
  }
}

function page(protocol = "https:") {
  const count = new FakeElement("span");
  const region = new FakeElement("div");
  const sockets = [];
  const timers = [];
  class WebSocket {
    constructor(address) {
      this.address = address;
      sockets.push(this);
    }
  }
  const window = { location: { protocol, host: "push.example" },
    setTimeout: (run, wait) => timers.push({ run, wait }) };
  window.WebSocket = WebSocket;
  const document = {
    currentScript: { getAttribute: () => "/ws/inbox/?lang=fi" },
    querySelector: (selector) => (selector === "[data-inbox-count]" ? count : region),
    createElement: (tag) => new FakeElement(tag),
  };
  vm.runInNewContext(SOURCE, { window, document, WebSocket, JSON, Math, Boolean });
  const say = (message) => sockets.at(-1).onmessage({ data: JSON.stringify(message) });
  return { count, region, sockets, timers, say };
}

test("it opens the inbox in the page's language, over wss on https", () => {
  const { sockets } = page();
  assert.equal(sockets.length, 1);
  assert.equal(sockets[0].address, "wss://push.example/ws/inbox/?lang=fi");
  assert.equal(page("http:").sockets[0].address, "ws://push.example/ws/inbox/?lang=fi");
});

test("the count follows the server, hidden at nought", () => {
  const { count, say } = page();
  say({ type: "unread", unread: 3 });
  assert.equal(count.textContent.trim(), "3");
  assert.equal(count.hidden, false);
  say({ type: "unread", unread: 0 });
  assert.equal(count.hidden, true);
});

test("a new notice shows its words and link; a ready table prominently", () => {
  const { count, region, say } = page();
  say({ type: "notice", unread: 1, kind: "ended", text: "Round 1 has ended.", link: "",
    prominent: false });
  assert.equal(region.hidden, false);
  assert.equal(region.textContent, "Round 1 has ended.");
  assert.equal(region.children[0].tagName, "span");
  assert.equal(region.classes.has("prominent"), false);
  say({ type: "notice", unread: 2, kind: "table_ready", text: "Your table is ready.",
    link: "/tables/7/", prominent: true });
  assert.equal(count.textContent.trim(), "2");
  assert.equal(region.textContent, "Your table is ready."); // the last notice only
  assert.equal(region.children[0].tagName, "a");
  assert.equal(region.children[0].href, "/tables/7/");
  assert.equal(region.classes.has("prominent"), true);
});

test("a dropped connection is opened again, waiting longer each time; a refusal is final", () => {
  const { sockets, timers } = page();
  sockets[0].onclose({ code: 1006 });
  assert.equal(timers.length, 1);
  timers[0].run();
  assert.equal(sockets.length, 2);
  sockets[1].onclose({ code: 1006 });
  assert.ok(timers[1].wait > timers[0].wait);
  timers[1].run();
  sockets[2].onclose({ code: 4403 }); // logged out meanwhile: no more tries
  assert.equal(timers.length, 2);
});
