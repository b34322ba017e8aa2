// The seat links of the games started (or rejoined) in this browser, so the lobby can offer
// to resume them: a link is the only key to a seat. Kept in localStorage, the newest 50.
const KEY = "monsterball-seats";
const KEPT = 50;

/** @typedef {{name: string, url: string}} SeatLink */

/** @returns {Record<string, SeatLink[]>} game id -> its seats' links */
export function remembered() {
  try {
    return JSON.parse(localStorage.getItem(KEY) || "{}");
  } catch {
    return {};
  }
}

/**
 * Keep the links of a game's seats (added to those already kept for it).
 * @param {string} gameId
 * @param {SeatLink[]} chairs
 */
export function remember(gameId, chairs) {
  const seats = remembered();
  const kept = (seats[gameId] || []).filter((s) => !chairs.some((c) => c.name === s.name));
  delete seats[gameId]; // re-added last: the newest
  seats[gameId] = [...kept, ...chairs.map((c) => ({ name: c.name, url: c.url }))];
  const ids = Object.keys(seats);
  for (const old of ids.slice(0, Math.max(0, ids.length - KEPT))) delete seats[old];
  localStorage.setItem(KEY, JSON.stringify(seats));
}
