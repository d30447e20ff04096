// Node's module resolution for the site's static files as the browser sees them. A
// module's relative import is relative to its address under STATIC_URL, which gathers
// every app's static/ folder into one tree (live/table.js, games/cards.js); on disk those
// are separate folders (games/live/static/live/, games/static/games/). These hooks
// resolve a relative import from a static file the way the static files finders do: the
// import's static path, looked up in each app's static/ folder.
import { existsSync, readdirSync } from "node:fs";

const REPO = new URL("../../", import.meta.url);

function staticRoots() {
  // <app>/static/ and <app>/<sub-app>/static/, as Django's app directories finder has them
  const roots = [];
  const look = (folder, depth) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      if (!entry.isDirectory() || entry.name.startsWith(".") || entry.name === "node_modules") {
        continue;
      }
      const inner = new URL(entry.name + "/", folder);
      if (entry.name === "static") {
        roots.push(inner.href);
      } else if (depth < 2) {
        look(inner, depth + 1);
      }
    }
  };
  look(REPO, 0);
  return roots;
}

const ROOTS = staticRoots();

export async function resolve(specifier, context, next) {
  const root = context.parentURL && /^\.\.?\//.test(specifier) &&
    ROOTS.find((r) => context.parentURL.startsWith(r));
  if (root) {
    // the parent's static path, and the import's from it
    const path = new URL(specifier, "static:/" + context.parentURL.slice(root.length)).pathname;
    const found = ROOTS.map((r) => new URL(path.replace(/^\//, ""), r)).find((url) => existsSync(url));
    if (found) {
      return next(found.href, context);
    }
  }
  return next(specifier, context);
}
