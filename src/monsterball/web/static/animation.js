// Moving what changed between two boards: pieces step by step along a run, the disc or ball
// through the air along the path the log names. Nothing moves with "reduce motion".
import { geometry, parseCell, runPath } from "./geometry.js";

const reduced = () =>
  window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;

// Moves the new drawing's pieces and disc from where the previous board had them, step by
// step along a run and through the air along a throw's path (``flight``: cells the log named).
// Returns how long the longest movement runs, in ms (0: nothing moves).
export function animate(root, before, after, flight = null, flipped = false) {
  if (!before || reduced() || before.cols !== after.cols || before.rows !== after.rows) return 0;
  let longest = 0;
  const geo = geometry(after, flipped);
  const old = new Map(before.pieces.map((p) => [p.id, p.cell]));
  const blocked = new Set(before.pieces.map((p) => p.cell));
  if (before.ball && !before.ball.held) blocked.add(before.ball.cell);
  const offsets = (cells, endCell) => {
    const [ex, ey] = geo.center(...parseCell(endCell));
    return cells.map((c) => {
      const [x, y] = geo.center(...parseCell(c));
      return { transform: `translate(${x - ex}px, ${y - ey}px)` };
    });
  };
  const pathOf = new Map();
  for (const piece of after.pieces) {
    const from = old.get(piece.id);
    if (!from || from === piece.cell || !parseCell(from) || !parseCell(piece.cell)) continue;
    const path = runPath(after, from, piece.cell, blocked) || [from, piece.cell];
    pathOf.set(piece.id, path);
    const node = root.querySelector(`[data-piece="${piece.id}"]`);
    const duration = Math.min(1400, 140 * (path.length - 1));
    if (node) {
      node.animate(offsets(path, piece.cell), { duration, easing: "linear" });
      longest = Math.max(longest, duration);
    }
  }
  const ball = root.querySelector("[data-ball]");
  if (
    ball &&
    before.ball &&
    after.ball &&
    before.ball.cell !== after.ball.cell &&
    parseCell(before.ball.cell)
  ) {
    let path = null;
    if (flight && flight.length)
      path = [before.ball.cell, ...flight.filter((c) => c !== before.ball.cell)];
    if (!path || path[path.length - 1] !== after.ball.cell) {
      const holder = after.pieces.find((p) => p.cell === after.ball.cell && pathOf.has(p.id));
      path = holder ? pathOf.get(holder.id) : [before.ball.cell, after.ball.cell];
    }
    const duration = Math.min(1400, 90 * path.length + 150);
    ball.animate(offsets(path, after.ball.cell), { duration, easing: "ease-out" });
    longest = Math.max(longest, duration);
  }
  return longest;
}

// The cells a throw or kick flew through, when the log's words list them: "(h6 h5 g4 h3 h2)".
export function flightIn(entries) {
  for (const entry of entries.slice().reverse()) {
    for (const text of entry.events || []) {
      const match = /\(((?:[a-z]\d{1,2}\s*){2,})\)/.exec(text);
      if (match) return match[1].trim().split(/\s+/);
    }
  }
  return null;
}
