// Where things are on a field: cell names, the drawing's geometry (squares or hexes, with
// odd hex rows half a space to the right), neighbours and shortest runs (for animation).
import { svg } from "./util.js";

const CELL = 34;
const HEX_R = 19;
export const EDGE = 18; // room for the coordinates around the field

export function cellName(col, row) {
  return String.fromCharCode(97 + col) + (row + 1);
}

export function parseCell(name) {
  const match = /^([a-z])(\d+)$/.exec(name || "");
  return match ? [match[1].charCodeAt(0) - 97, Number(match[2]) - 1] : null;
}

/**
 * Where each cell is drawn. `flipped`: the field turned half a turn (seat B's own end at the
 * bottom), every centre reflected through the field's middle.
 */
export function geometry(board, flipped = false) {
  const geo = layout(board);
  if (!flipped) return geo;
  const plain = geo.center;
  const sumX = 2 * geo.edge + geo.fieldW;
  const sumY = 2 * geo.edge + geo.fieldH;
  return {
    ...geo,
    flipped: true,
    center: (col, row) => {
      const [x, y] = plain(col, row);
      return [sumX - x, sumY - y];
    },
  };
}

function layout(board) {
  const labels = Object.keys(board.row_labels || {}).length ? 24 : 0;
  if (board.grid === "hex") {
    const w = Math.sqrt(3) * HEX_R;
    const fieldW = (board.cols + 0.5) * w;
    const fieldH = (board.rows - 1) * 1.5 * HEX_R + 2 * HEX_R;
    return {
      hex: true,
      edge: EDGE,
      fieldW,
      fieldH,
      labels,
      width: fieldW + 2 * EDGE + labels,
      height: fieldH + 2 * EDGE,
      center(col, row) {
        return [
          EDGE + col * w + (row % 2 ? w / 2 : 0) + w / 2,
          EDGE + (board.rows - 1 - row) * 1.5 * HEX_R + HEX_R,
        ];
      },
      shape(cx, cy) {
        const pts = [];
        for (let i = 0; i < 6; i++) {
          const angle = (Math.PI / 180) * (60 * i - 30);
          pts.push(
            `${(cx + HEX_R * Math.cos(angle)).toFixed(1)},${(cy + HEX_R * Math.sin(angle)).toFixed(1)}`,
          );
        }
        return svg("polygon", { points: pts.join(" ") });
      },
      halfRow: HEX_R * 0.75,
      radius: HEX_R * 0.72,
    };
  }
  return {
    hex: false,
    edge: EDGE,
    fieldW: board.cols * CELL,
    fieldH: board.rows * CELL,
    labels,
    width: board.cols * CELL + 2 * EDGE + labels,
    height: board.rows * CELL + 2 * EDGE,
    center(col, row) {
      return [EDGE + col * CELL + CELL / 2, EDGE + (board.rows - 1 - row) * CELL + CELL / 2];
    },
    shape(cx, cy) {
      return svg("rect", { x: cx - CELL / 2, y: cy - CELL / 2, width: CELL, height: CELL });
    },
    halfRow: CELL / 2,
    radius: CELL * 0.38,
  };
}

// Neighbouring cells, for drawing a run step by step (odd rows of a hex field sit half a
// space to the right, as drawn above).
export function neighbours(board, col, row) {
  const steps =
    board.grid === "hex"
      ? row % 2
        ? [
            [-1, 0],
            [1, 0],
            [0, 1],
            [1, 1],
            [0, -1],
            [1, -1],
          ]
        : [
            [-1, 0],
            [1, 0],
            [-1, 1],
            [0, 1],
            [-1, -1],
            [0, -1],
          ]
      : [
          [-1, 0],
          [1, 0],
          [0, 1],
          [0, -1],
          [-1, -1],
          [1, 1],
          [-1, 1],
          [1, -1],
        ];
  return steps
    .map(([dc, dr]) => [col + dc, row + dr])
    .filter(([c, r]) => c >= 0 && r >= 0 && c < board.cols && r < board.rows);
}

// A shortest path through open cells (the engine moves players along one), or null.
export function runPath(board, from, to, blocked) {
  const start = parseCell(from);
  const goal = to;
  const seen = new Map([[from, null]]);
  let frontier = [start];
  for (let depth = 0; depth < 24 && frontier.length; depth++) {
    const next = [];
    for (const [c, r] of frontier) {
      for (const [nc, nr] of neighbours(board, c, r)) {
        const name = cellName(nc, nr);
        if (seen.has(name) || (blocked.has(name) && name !== goal)) continue;
        seen.set(name, cellName(c, r));
        if (name === goal) {
          const path = [name];
          while (seen.get(path[0])) path.unshift(seen.get(path[0]));
          return path;
        }
        next.push([nc, nr]);
      }
    }
    frontier = next;
  }
  return null;
}
