// eslint's flat config for the browser code (`make lint`): the site's static scripts and
// the unit tests of tests/js. The live table and the replay are ES modules; the other
// static scripts are classic ones, each its own IIFE.
import js from "@eslint/js";
import globals from "globals";

const MODULES = ["games/static/games/*.js", "games/live/static/live/*.js"];

export default [
  { ignores: ["node_modules/", "staticfiles/", ".venv/"] },
  js.configs.recommended,
  {
    files: MODULES,
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: globals.browser },
  },
  {
    // tournaments' scripts load as classic scripts
    files: ["tournaments/static/**/*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "script", globals: globals.browser },
  },
  {
    // the tests run on node, with tests/js/dom.mjs's document
    files: ["tests/js/**/*.mjs", "eslint.config.mjs"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module",
      globals: { ...globals.node, document: "readonly" } },
  },
  {
    rules: {
      "no-unused-vars": ["error", { args: "none", caughtErrors: "none" }],
      // a name used before its definition at the same level; in a function called later, fine
      "no-use-before-define": ["error", { functions: false, classes: false, variables: false }],
      eqeqeq: "error",
      "no-var": "off",
      "prefer-const": "off",
    },
  },
];
