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
// draw before then redraw on it (or on the window's "monsterball-hints" event). saidFor is the
// move list's counterpart: a move the engine's events say nothing about, in words; clickFor
// the game page's guide line: what to click for an action, in the game's words (GET /api/clicks).

let table = null; // game id -> [[RegExp, hint], ...]
let said = null; // game id -> [[RegExp, words with $1], ...] (GET /api/said)
let clicks = null; // game id -> [[RegExp, "aim" | "ring", text with $piece], ...]

const fetchPairs = (url) =>
  fetch(url)
    .then((response) => (response.ok ? response.json() : {}))
    .catch(() => ({}))
    .then((data) =>
      Object.fromEntries(
        Object.entries(data || {}).map(([game, pairs]) => [
          game,
          pairs.map(([pattern, ...rest]) => [new RegExp(pattern), ...rest]),
        ]),
      ),
    );

const loading = Promise.all([
  fetchPairs("/api/hints"),
  fetchPairs("/api/said"),
  fetchPairs("/api/clicks"),
]).then(([hints, words, guideLines]) => {
  table = hints;
  said = words;
  clicks = guideLines;
  window.dispatchEvent(new Event("monsterball-hints"));
  return table;
});

export function hintsReady() {
  return loading;
}

// A move in words for the move list, where the engine's events say nothing ("roll" ->
// "rolls the team dice", "tackle B4 j8" -> "B4 tries to tackle the ball carrier on j8"), or null.
export function saidFor(gameId, actionNotation) {
  if (!said || !said[gameId] || typeof actionNotation !== "string") return null;
  const found = said[gameId].find(([pattern]) => pattern.test(actionNotation));
  return found ? actionNotation.replace(found[0], found[1]) : null;
}

export function hintFor(gameId, actionNotation) {
  if (!table || !table[gameId] || typeof actionNotation !== "string") return null;
  const found = table[gameId].find(([pattern]) => pattern.test(actionNotation));
  return found ? found[1] : null;
}

// What the guide line says for an action of this kind ("aim": a selected piece's aimed
// action; "ring": a ringed piece's action), in the game's words with "$piece" left in; or null.
export function clickFor(gameId, kind, actionNotation) {
  if (!clicks || !clicks[gameId] || typeof actionNotation !== "string") return null;
  const found = clicks[gameId].find(([pattern, k]) => k === kind && pattern.test(actionNotation));
  return found ? found[2] : null;
}
