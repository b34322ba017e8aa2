// Drawing the shared board format (core/board.py) as SVG: fields with coordinates on every
// edge, pieces (stacks fanned), the disc or ball, marks, keyboard play; legend.js draws the
// legend and dice, animation.js moves what changed.
import { EDGE, cellName, geometry, parseCell } from "./geometry.js";
import { svg } from "./util.js";
export { die, legend } from "./legend.js";

// learn.js and play.js draw with these too.
export { animate, flightIn } from "./animation.js";
export { cellName, geometry, parseCell };

function coordinates(root, board, geo) {
  const add = (x, y, text, anchor = "middle") =>
    root.append(
      svg(
        "text",
        {
          x: x.toFixed(1),
          y: y.toFixed(1),
          class: "coord",
          "text-anchor": anchor,
          "data-testid": "coord",
        },
        text,
      ),
    );
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
  if (last === "G" && entries[0][1] !== "G")
    lines.push([geo.center(0, firstRow)[1] + geo.halfRow, "G"]);
  for (const [y, text] of lines) {
    root.append(svg("line", { x1: x0, x2: x1, y1: y, y2: y, class: "yard-line" }));
    root.append(svg("text", { x: x1 + 22, y: y + 3.5, class: "row-label" }, text));
  }
}

export function drawBoard(board, ui = {}) {
  const geo = geometry(board, Boolean(ui.flipped));
  const root = svg("svg", {
    class: "board",
    viewBox: `0 0 ${geo.width.toFixed(1)} ${geo.height.toFixed(1)}`,
    "data-testid": "board",
    role: "img",
    "aria-label": `${board.cols} by ${board.rows} field`,
  });
  root.style.setProperty("--ratio", `${geo.width / geo.height}`);
  // A wide field (Midway's 14 columns) keeps tappable spaces on a phone: it scrolls sideways
  // in its frame instead of shrinking to the screen (style.css).
  if (board.cols >= 12) root.classList.add("wide");
  const zoneOf = {};
  for (const zone of board.zones)
    for (let r = zone.rows[0]; r <= zone.rows[1]; r++) zoneOf[r] = zone.team;
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
      shape.setAttribute("tabindex", "-1");
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
      node = svg("polygon", {
        points: `${cx},${cy - r} ${cx - r * 0.8},${cy + r * 0.7} ${cx + r * 0.8},${cy + r * 0.7}`,
      });
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
  // The disc is drawn at a holder's shoulder only when he stands on its space (Paper
  // Ultimate, a Midway carrier); a Huck + Monster disc lies on its own space next to its
  // holder, and is drawn at that space's centre like a loose one.
  const holderCell =
    board.ball && board.ball.held && board.pieces.some((p) => p.cell === board.ball.cell)
      ? board.ball.cell
      : null;
  const stacks = {};
  for (const piece of board.pieces) (stacks[piece.cell] = stacks[piece.cell] || []).push(piece);
  for (const piece of board.pieces) {
    const at = parseCell(piece.cell);
    if (!at) continue;
    let [cx, cy] = geo.center(...at);
    const stack = stacks[piece.cell];
    // Pieces sharing a space (a Midway stack) are fanned out so each shows, and it is badged.
    const fan = stack.length > 1 ? stack.indexOf(piece) - (stack.length - 1) / 2 : 0;
    cx += fan * geo.radius * 0.8;
    cy += fan * geo.radius * 0.3;
    const r = geo.radius * piece.size * (stack.length > 1 ? 0.7 : 1);
    const group = svg("g", {
      class: `piece team-${piece.team}`,
      "data-piece": piece.id,
      "data-at": piece.cell,
    });
    if (piece.flags.includes("out")) group.classList.add("out");
    if (ui.actionable && ui.actionable.has(piece.id)) group.classList.add("actionable");
    if (ui.selected === piece.id) group.classList.add("selected");
    group.append(
      svg("title", {}, `${piece.title} at ${piece.cell}`),
      svg("circle", { class: "body", cx, cy, r }),
    );
    if (piece.flags.includes("holder"))
      group.append(svg("circle", { class: "holder-ring", cx, cy, r: r + 4 }));
    // A Midway counter says its monster type (two letters, the legend's) over its number.
    const kind = ui.kinds && ui.kinds.get(piece.id);
    if (kind) {
      group.dataset.kind = kind.type;
      group.append(
        svg("text", { x: cx, y: cy + 1.5, "text-anchor": "middle", class: "kind" }, kind.code),
        svg(
          "text",
          { x: cx, y: cy + r * 0.78, "text-anchor": "middle", class: "num" },
          piece.label,
        ),
      );
    } else group.append(svg("text", { x: cx, y: cy + 4, "text-anchor": "middle" }, piece.label));
    if (ui.onCell) group.addEventListener("click", () => ui.onCell(piece.cell));
    root.append(group);
  }
  for (const [cell, stack] of Object.entries(stacks)) {
    const at = stack.length > 1 && parseCell(cell);
    if (!at) continue;
    const [cx, cy] = geo.center(...at);
    const badge = svg("g", { class: "stack-badge", "data-stack": cell, "pointer-events": "none" });
    badge.append(
      svg("circle", { cx: cx + geo.radius * 0.85, cy: cy - geo.radius * 0.85, r: 6.5 }),
      svg(
        "text",
        { x: cx + geo.radius * 0.85, y: cy - geo.radius * 0.85 + 3.5, "text-anchor": "middle" },
        String(stack.length),
      ),
    );
    root.append(badge);
  }
  if (board.ball) {
    const at = parseCell(board.ball.cell);
    if (at) {
      let [cx, cy] = geo.center(...at);
      const held = holderCell !== null;
      // Held: at the holder's shoulder, on the side facing the field's middle (never off it).
      if (held) {
        cx += (at[0] < board.cols / 2 !== Boolean(ui.flipped) ? 1 : -1) * geo.radius * 0.6;
        cy -= geo.radius * 0.6;
      }
      const size = held ? geo.radius * 0.45 : geo.radius * 0.6;
      const node =
        board.ball.kind === "ball"
          ? svg("ellipse", { cx, cy, rx: size * 1.3, ry: size * 0.85, class: "ball" })
          : svg("circle", { cx, cy, r: size, class: "disc" });
      node.setAttribute("data-ball", board.ball.cell);
      if (held) node.setAttribute("data-held", "");
      root.append(node);
    }
  }
  for (const [cell, text] of Object.entries(odds)) {
    const at = parseCell(cell);
    if (!at) continue;
    const [cx, cy] = geo.center(...at);
    root.append(
      svg(
        "text",
        {
          x: cx,
          y: cy + 3,
          class: "odds-label",
          "text-anchor": "middle",
          "data-testid": "odds",
          "data-cell": cell,
        },
        text,
      ),
    );
  }
  if (ui.onCell) keyboard(root, board, geo, ui.onCell);
  return root;
}

// Keyboard play: the field takes the focus (Tab), arrow keys move between spaces as drawn
// (flipped too), Enter or Space clicks the space in focus.
function keyboard(root, board, geo, onCell) {
  root.setAttribute("tabindex", "0");
  root.setAttribute(
    "aria-label",
    `${board.cols} by ${board.rows} field: arrow keys choose a space, Enter clicks it`,
  );
  let focus = null;
  const show = (name) => {
    root.querySelectorAll(".cell.focus").forEach((n) => n.classList.remove("focus"));
    const node = root.querySelector(`.cell[data-cell="${name}"]`);
    if (node) {
      node.classList.add("focus");
      root.setAttribute("aria-activedescendant", name);
      focus = name;
    }
  };
  root.addEventListener("focus", () => {
    const start = root.querySelector(".piece.actionable, .cell.target, .cell.cell-target");
    show(
      root.dataset.focusCell ||
        focus ||
        (start && (start.getAttribute("data-at") || start.getAttribute("data-cell"))) ||
        cellName(0, 0),
    );
  });
  root.addEventListener("keydown", (event) => {
    const steps = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };
    const at = parseCell(focus);
    if (steps[event.key] && at) {
      const [dc, dr] = steps[event.key].map((d) => (geo.flipped ? -d : d));
      const col = Math.min(board.cols - 1, Math.max(0, at[0] + dc));
      const row = Math.min(board.rows - 1, Math.max(0, at[1] + dr));
      show(cellName(col, row));
    } else if ((event.key === "Enter" || event.key === " ") && focus) {
      onCell(focus);
    } else return;
    event.preventDefault();
  });
}
