// Drawing the shared board format (core/board.py) as SVG: fields with coordinates on every
// edge, pieces, the disc or ball, marks; moves animated from the previous board; dice.
import { el, svg } from "./util.js";

const CELL = 34;
const HEX_R = 19;
const EDGE = 18; // room for the coordinates around the field

export function cellName(col, row) { return String.fromCharCode(97 + col) + (row + 1); }

export function parseCell(name) {
  const match = /^([a-z])(\d+)$/.exec(name || "");
  return match ? [match[1].charCodeAt(0) - 97, Number(match[2]) - 1] : null;
}

export function geometry(board) {
  const labels = Object.keys(board.row_labels || {}).length ? 24 : 0;
  if (board.grid === "hex") {
    const w = Math.sqrt(3) * HEX_R;
    const fieldW = (board.cols + 0.5) * w;
    const fieldH = (board.rows - 1) * 1.5 * HEX_R + 2 * HEX_R;
    return {
      hex: true, edge: EDGE, fieldW, fieldH, labels,
      width: fieldW + 2 * EDGE + labels,
      height: fieldH + 2 * EDGE,
      center(col, row) {
        return [EDGE + col * w + (row % 2 ? w / 2 : 0) + w / 2,
          EDGE + (board.rows - 1 - row) * 1.5 * HEX_R + HEX_R];
      },
      shape(cx, cy) {
        const pts = [];
        for (let i = 0; i < 6; i++) {
          const angle = Math.PI / 180 * (60 * i - 30);
          pts.push(`${(cx + HEX_R * Math.cos(angle)).toFixed(1)},${(cy + HEX_R * Math.sin(angle)).toFixed(1)}`);
        }
        return svg("polygon", { points: pts.join(" ") });
      },
      halfRow: HEX_R * 0.75,
      radius: HEX_R * 0.72,
    };
  }
  return {
    hex: false, edge: EDGE, fieldW: board.cols * CELL, fieldH: board.rows * CELL, labels,
    width: board.cols * CELL + 2 * EDGE + labels,
    height: board.rows * CELL + 2 * EDGE,
    center(col, row) { return [EDGE + col * CELL + CELL / 2, EDGE + (board.rows - 1 - row) * CELL + CELL / 2]; },
    shape(cx, cy) { return svg("rect", { x: cx - CELL / 2, y: cy - CELL / 2, width: CELL, height: CELL }); },
    halfRow: CELL / 2,
    radius: CELL * 0.38,
  };
}

// Neighbouring cells, for drawing a run step by step (odd rows of a hex field sit half a
// space to the right, as drawn above).
function neighbours(board, col, row) {
  const steps = board.grid === "hex"
    ? (row % 2 ? [[-1, 0], [1, 0], [0, 1], [1, 1], [0, -1], [1, -1]] : [[-1, 0], [1, 0], [-1, 1], [0, 1], [-1, -1], [0, -1]])
    : [[-1, 0], [1, 0], [0, 1], [0, -1], [-1, -1], [1, 1], [-1, 1], [1, -1]];
  return steps.map(([dc, dr]) => [col + dc, row + dr])
    .filter(([c, r]) => c >= 0 && r >= 0 && c < board.cols && r < board.rows);
}

// A shortest path through open cells (the engine moves players along one), or null.
function runPath(board, from, to, blocked) {
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

function coordinates(root, board, geo) {
  const add = (x, y, text, anchor = "middle") => root.append(svg("text",
    { x: x.toFixed(1), y: y.toFixed(1), class: "coord", "text-anchor": anchor, "data-testid": "coord" }, text));
  for (let col = 0; col < board.cols; col++) {
    const letter = String.fromCharCode(97 + col);
    add(geo.center(col, board.rows - 1)[0], EDGE - 5, letter);
    add(geo.center(col, 0)[0], geo.height - 5, letter);
  }
  const right = EDGE + geo.fieldW;
  for (let row = 0; row < board.rows; row++) {
    const y = geo.center(0, row)[1] + 3.5;
    add(EDGE - 3, y, String(row + 1), "end");
    add(right + 3, y, String(row + 1), "start");
  }
}

// Yard lines (Midway): a row's label names the line on its north edge; the goal line at the
// south edge of the first labelled row is the mirror of the last.
function yardLines(root, board, geo) {
  const entries = Object.entries(board.row_labels || {}).map(([r, t]) => [Number(r), t]);
  if (!entries.length) return;
  entries.sort((a, b) => a[0] - b[0]);
  const x0 = EDGE;
  const x1 = EDGE + geo.fieldW;
  const lines = entries.map(([row, text]) => [geo.center(0, row)[1] - geo.halfRow, text]);
  const [firstRow] = entries[0];
  const last = entries[entries.length - 1][1];
  if (last === "G" && entries[0][1] !== "G") lines.push([geo.center(0, firstRow)[1] + geo.halfRow, "G"]);
  for (const [y, text] of lines) {
    root.append(svg("line", { x1: x0, x2: x1, y1: y, y2: y, class: "yard-line" }));
    root.append(svg("text", { x: x1 + 22, y: y + 3.5, class: "row-label" }, text));
  }
}

export function drawBoard(board, ui = {}) {
  const geo = geometry(board);
  const root = svg("svg", { class: "board", viewBox: `0 0 ${geo.width.toFixed(1)} ${geo.height.toFixed(1)}`,
    "data-testid": "board", role: "img", "aria-label": `${board.cols} by ${board.rows} field` });
  root.style.setProperty("--ratio", `${geo.width / geo.height}`);
  const zoneOf = {};
  for (const zone of board.zones) for (let r = zone.rows[0]; r <= zone.rows[1]; r++) zoneOf[r] = zone.team;
  const lines = new Set(board.lines);
  const hashes = new Set(board.hash_cols);
  const targets = ui.targets || new Set();
  const cellTargets = ui.cellTargets || new Set();
  const last = ui.lastCells || new Set();
  const odds = ui.odds || {};
  for (let row = 0; row < board.rows; row++) {
    for (let col = 0; col < board.cols; col++) {
      const name = cellName(col, row);
      const [cx, cy] = geo.center(col, row);
      const shape = geo.shape(cx, cy);
      const classes = ["cell"];
      if (lines.has(row)) classes.push("line");
      else if (zoneOf[row] !== undefined) classes.push(`zone-${zoneOf[row]}`);
      else if (hashes.has(col)) classes.push("hash");
      if (targets.has(name)) classes.push("target");
      else if (cellTargets.has(name)) classes.push("cell-target");
      if (last.has(name)) classes.push("last");
      shape.setAttribute("class", classes.join(" "));
      shape.setAttribute("data-cell", name);
      shape.append(svg("title", {}, name));
      if (ui.onCell) shape.addEventListener("click", () => ui.onCell(name));
      root.append(shape);
    }
  }
  coordinates(root, board, geo);
  yardLines(root, board, geo);
  for (const mark of board.marks) {
    const at = parseCell(mark.cell);
    if (!at) continue;
    const [cx, cy] = geo.center(...at);
    const r = geo.radius;
    let node;
    if (mark.kind === "cone") {
      node = svg("polygon", { points: `${cx},${cy - r} ${cx - r * 0.8},${cy + r * 0.7} ${cx + r * 0.8},${cy + r * 0.7}` });
    } else if (mark.kind === "path" || mark.kind === "punt") {
      node = svg("circle", { cx, cy, r: 3 });
    } else if (mark.kind === "pothole") {
      node = svg("circle", { cx, cy, r: r * 0.5 });
    } else {
      node = svg("circle", { cx, cy, r: mark.kind === "stealth" ? r * 1.05 : r });
    }
    node.setAttribute("class", `mark-${mark.kind}`);
    node.setAttribute("data-mark", mark.kind);
    root.append(node);
  }
  const holderCell = board.ball && board.ball.held ? board.ball.cell : null;
  for (const piece of board.pieces) {
    const at = parseCell(piece.cell);
    if (!at) continue;
    const [cx, cy] = geo.center(...at);
    const r = geo.radius * piece.size;
    const group = svg("g", { class: `piece team-${piece.team}`, "data-piece": piece.id, "data-at": piece.cell });
    if (piece.flags.includes("out")) group.classList.add("out");
    if (ui.actionable && ui.actionable.has(piece.id)) group.classList.add("actionable");
    if (ui.selected === piece.id) group.classList.add("selected");
    group.append(svg("title", {}, `${piece.title} at ${piece.cell}`), svg("circle", { class: "body", cx, cy, r }));
    if (piece.flags.includes("holder")) group.append(svg("circle", { class: "holder-ring", cx, cy, r: r + 4 }));
    group.append(svg("text", { x: cx, y: cy + 4, "text-anchor": "middle" }, piece.label));
    if (ui.onCell) group.addEventListener("click", () => ui.onCell(piece.cell));
    root.append(group);
  }
  if (board.ball) {
    const at = parseCell(board.ball.cell);
    if (at) {
      let [cx, cy] = geo.center(...at);
      const held = holderCell !== null;
      if (held) { cx += geo.radius * 0.7; cy -= geo.radius * 0.7; }
      const size = held ? geo.radius * 0.45 : geo.radius * 0.6;
      const node = board.ball.kind === "ball"
        ? svg("ellipse", { cx, cy, rx: size * 1.3, ry: size * 0.85, class: "ball" })
        : svg("circle", { cx, cy, r: size, class: "disc" });
      node.setAttribute("data-ball", board.ball.cell);
      root.append(node);
    }
  }
  for (const [cell, text] of Object.entries(odds)) {
    const at = parseCell(cell);
    if (!at) continue;
    const [cx, cy] = geo.center(...at);
    root.append(svg("text", { x: cx, y: cy + 3, class: "odds-label", "text-anchor": "middle", "data-testid": "odds", "data-cell": cell }, text));
  }
  return root;
}

const reduced = () => window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;

// Moves the new drawing's pieces and disc from where the previous board had them, step by
// step along a run and through the air along a throw's path (``flight``: cells the log named).
export function animate(root, before, after, flight = null) {
  if (!before || reduced() || before.cols !== after.cols || before.rows !== after.rows) return;
  const geo = geometry(after);
  const old = new Map(before.pieces.map((p) => [p.id, p.cell]));
  const blocked = new Set(before.pieces.map((p) => p.cell));
  if (before.ball && !before.ball.held) blocked.add(before.ball.cell);
  const offsets = (cells, endCell) => {
    const [ex, ey] = geo.center(...parseCell(endCell));
    return cells.map((c) => { const [x, y] = geo.center(...parseCell(c)); return { transform: `translate(${x - ex}px, ${y - ey}px)` }; });
  };
  const pathOf = new Map();
  for (const piece of after.pieces) {
    const from = old.get(piece.id);
    if (!from || from === piece.cell || !parseCell(from) || !parseCell(piece.cell)) continue;
    const path = runPath(after, from, piece.cell, blocked) || [from, piece.cell];
    pathOf.set(piece.id, path);
    const node = root.querySelector(`[data-piece="${piece.id}"]`);
    if (node) node.animate(offsets(path, piece.cell), { duration: Math.min(1400, 140 * (path.length - 1)), easing: "linear" });
  }
  const ball = root.querySelector("[data-ball]");
  if (ball && before.ball && after.ball && before.ball.cell !== after.ball.cell && parseCell(before.ball.cell)) {
    let path = null;
    if (flight && flight.length) path = [before.ball.cell, ...flight.filter((c) => c !== before.ball.cell)];
    if (!path || path[path.length - 1] !== after.ball.cell) {
      const holder = after.pieces.find((p) => p.cell === after.ball.cell && pathOf.has(p.id));
      path = holder ? pathOf.get(holder.id) : [before.ball.cell, after.ball.cell];
    }
    ball.animate(offsets(path, after.ball.cell), { duration: Math.min(1400, 90 * path.length + 150), easing: "ease-out" });
  }
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

// -- legend and dice -----------------------------------------------------------------------

function swatch(...nodes) {
  const root = svg("svg", { width: 22, height: 22, viewBox: "0 0 22 22", class: "swatch", "aria-hidden": "true" });
  root.append(...nodes);
  return root;
}

export function legend(board, you, ballKind = "disc") {
  const items = [];
  for (const team of Object.keys(board.teams || { A: 0, B: 0 })) {
    const g = svg("g", { class: `sample team-${team}` });
    g.append(svg("circle", { class: "body", cx: 11, cy: 11, r: 8 }));
    const end = (board.teams || {})[team];
    items.push([swatch(g), `team ${team}${team === you ? " (you)" : ""}${end ? ` — attacks the ${end} end` : ""}`]);
  }
  const ring = (cls, text) => { const g = svg("g", { class: `sample ${cls}` }); g.append(svg("circle", { class: "body", cx: 11, cy: 11, r: 7, fill: "#888" })); items.push([swatch(g), text]); };
  ring("actionable", "yellow ring: a piece you can act with");
  ring("selected", "green ring: the piece you chose — click a green space");
  items.push([swatch(svg("circle", { class: "holder-ring", cx: 11, cy: 11, r: 8 })), `dashed ring: holds the ${ballKind}`]);
  if (ballKind !== "ball") items.push([swatch(svg("circle", { class: "disc", cx: 11, cy: 11, r: 6 })), "white circle: the disc"]);
  else items.push([swatch(svg("ellipse", { class: "ball", cx: 11, cy: 11, rx: 8, ry: 5 })), "brown oval: the ball"]);
  items.push([swatch(svg("rect", { class: "sample-cell last", x: 2, y: 2, width: 18, height: 18 })), "outlined spaces: the last move"]);
  const kinds = new Set(board.marks.map((m) => m.kind));
  const markText = { cone: "orange triangle: a cone", stealth: "purple dashed ring: a stealth space", path: "dots: the path", punt: "dots: the punt line", image: "grey counter: an image (which one is real is hidden)", vanished: "dashed circle: a vanished player", pothole: "brown dot: a pothole" };
  for (const kind of kinds) if (markText[kind]) items.push([null, markText[kind]]);
  return el("div", { class: "card legend", "data-testid": "legend" }, el("h2", {}, "Legend"),
    el("ul", {}, items.map(([icon, text]) => el("li", {}, icon, text))));
}

const PIPS = { 1: [[11, 11]], 2: [[6, 6], [16, 16]], 3: [[6, 6], [11, 11], [16, 16]], 4: [[6, 6], [16, 6], [6, 16], [16, 16]],
  5: [[6, 6], [16, 6], [11, 11], [6, 16], [16, 16]], 6: [[6, 5], [16, 5], [6, 11], [16, 11], [6, 17], [16, 17]] };

// One chance event drawn as a die: a single d6 with its pips, a sum as a die showing the
// total (the engine rolls a sum as one event), a named face (strategy die, toss) as a word.
export function die(action, fresh) {
  const match = /^(?:(\d*)d6)=(\d+)$/.exec(action);
  const box = el("span", { class: `die${fresh ? " rolling" : ""}`, title: action });
  if (match && (match[1] === "" || match[1] === "1") && PIPS[match[2]]) {
    const face = swatch(svg("rect", { x: 1, y: 1, width: 20, height: 20, rx: 4, class: "die-face" }),
      ...PIPS[match[2]].map(([x, y]) => svg("circle", { cx: x, cy: y, r: 2.1, class: "pip" })));
    box.append(face);
  } else if (match) {
    box.append(el("span", { class: "die-total" }, match[2]), el("span", { class: "die-kind" }, `${match[1]}d6`));
  } else {
    const [kind, face] = action.split("=");
    box.classList.add("word");
    box.append(el("span", { class: "die-total" }, face || action), face ? el("span", { class: "die-kind" }, kind) : null);
  }
  return box;
}
