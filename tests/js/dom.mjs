// What the tests of the browser code share. A document small enough to read: what the
// modules' drawing of words and cards uses of the DOM (elements, text, fragments,
// attributes), so that node can run them and a test can read what they drew, installed
// as globalThis.document. The static files' imports resolved as the browser resolves
// them (static-paths.mjs): a test imports this first, and the modules after it, with
// import() (a static import would be resolved before this had run).
import { readFileSync } from "node:fs";
import { register } from "node:module";

register("./static-paths.mjs", import.meta.url);

class Node {
  constructor() {
    this.childNodes = [];
  }

  appendChild(child) {
    if (child instanceof Fragment) {
      this.childNodes.push(...child.childNodes);
      child.childNodes = [];
    } else {
      this.childNodes.push(child);
    }
    return child;
  }

  get textContent() {
    return this.childNodes.map((c) => c.textContent).join("");
  }

  set textContent(words) {
    this.childNodes = words === "" ? [] : [new Text(String(words))];
  }
}

class Text extends Node {
  constructor(words) {
    super();
    this.words = words;
  }

  get textContent() {
    return this.words;
  }
}

class Fragment extends Node {}

class Element extends Node {
  constructor(tag) {
    super();
    this.tagName = tag.toUpperCase();
    this.attributes = {};
    this.className = "";
    this.title = "";
  }

  setAttribute(name, value) {
    this.attributes[name] = String(value);
  }

  getAttribute(name) {
    return name in this.attributes ? this.attributes[name] : null;
  }

  cloneNode() {
    const copy = new Element(this.tagName);
    Object.assign(copy, this, { childNodes: this.childNodes.slice() });
    return copy;
  }

  // the elements below, in document order
  get all() {
    return this.childNodes.filter((c) => c instanceof Element)
      .flatMap((c) => [c, ...c.all]);
  }
}

globalThis.document = {
  createElement: (tag) => new Element(tag),
  createTextNode: (words) => new Text(words),
  createDocumentFragment: () => new Fragment(),
};

export function holder(fragment) {
  // a fragment's nodes in an element, to read them
  const box = new Element("div");
  box.appendChild(fragment);
  return box;
}

// the page's data as the server makes it (tests/js_fixtures.py)
export const fixtures = JSON.parse(readFileSync(new URL("./fixtures.json", import.meta.url),
  "utf-8"));

export function move(text) {
  const found = fixtures.moves[text];
  if (!found) {
    throw new Error(`no move ${text} in fixtures.json (tests/js_fixtures.py ACTIONS)`);
  }
  return found;
}
