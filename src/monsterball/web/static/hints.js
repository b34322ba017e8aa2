// One-line hints for decisions (issue 33): what an action does and when it can be used, from
// each game's lessons data (GET /api/hints: per game, [pattern, hint] pairs; the first pattern
// found in an action's notation gives its hint).
//
//   import { hintFor, hintsReady } from "./hints.js";
//   hintFor("huck-monster", "strategy")  // -> "Roll your team dice and your strategy die: …"
//   hintFor("midway", "xyzzy")           // -> null
//
// hintFor is synchronous: it returns null until the hints have arrived (they are asked for
// once, when this module is first imported). hintsReady() resolves when they have; pages that
// draw before then redraw on it (or on the window's "monsterball-hints" event).

let table = null; // game id -> [[RegExp, hint], ...]

const loading = fetch("/api/hints")
  .then((response) => (response.ok ? response.json() : {}))
  .catch(() => ({}))
  .then((data) => {
    table = {};
    for (const [game, pairs] of Object.entries(data || {})) {
      table[game] = pairs.map(([pattern, text]) => [new RegExp(pattern), text]);
    }
    window.dispatchEvent(new Event("monsterball-hints"));
    return table;
  });

export function hintsReady() {
  return loading;
}

export function hintFor(gameId, actionNotation) {
  if (!table || !table[gameId] || typeof actionNotation !== "string") return null;
  const found = table[gameId].find(([pattern]) => pattern.test(actionNotation));
  return found ? found[1] : null;
}
