// What the field's colours and rings mean (the legend), and dice drawn as dice.
import { el, svg } from "./util.js";

function swatch(...nodes) {
  const root = svg("svg", {
    width: 22,
    height: 22,
    viewBox: "0 0 22 22",
    class: "swatch",
    "aria-hidden": "true",
  });
  root.append(...nodes);
  return root;
}

// `kinds`: each Midway player's type code (monsters.js), explained for the types on the field.
export function legend(board, you, ballKind = "disc", kinds = null) {
  const items = [];
  for (const team of Object.keys(board.teams || { A: 0, B: 0 })) {
    const g = svg("g", { class: `sample team-${team}` });
    g.append(svg("circle", { class: "body", cx: 11, cy: 11, r: 8 }));
    const end = (board.teams || {})[team];
    items.push([
      swatch(g),
      `team ${team}${team === you ? " (you)" : ""}${end ? ` — attacks the ${end} end` : ""}`,
    ]);
  }
  const ring = (cls, text) => {
    const g = svg("g", { class: `sample ${cls}` });
    g.append(svg("circle", { class: "body", cx: 11, cy: 11, r: 7, fill: "#888" }));
    items.push([swatch(g), text]);
  };
  const types = new Map();
  for (const piece of board.pieces) {
    const kind = kinds && kinds.get(piece.id);
    if (kind) types.set(kind.code, kind.type);
  }
  if (types.size) {
    const g = svg("g", { class: "sample team-A" });
    g.append(
      svg("circle", { class: "body", cx: 11, cy: 11, r: 10 }),
      svg("text", { x: 11, y: 12, "text-anchor": "middle", class: "kind" }, "Or"),
      svg("text", { x: 11, y: 19, "text-anchor": "middle", class: "num" }, "4"),
    );
    items.push([
      swatch(g),
      "each counter: its monster type over its number (Or 4: player 4, an orc)",
    ]);
    const sorted = [...types].sort((a, b) => a[1].localeCompare(b[1]));
    items.push([
      null,
      el(
        "span",
        { class: "kinds", "data-testid": "kinds-legend" },
        sorted.map(([code, type], i) => [i ? " · " : "", el("strong", {}, code), ` ${type}`]),
      ),
    ]);
  }
  if (board.lines.length && ballKind !== "ball")
    items.push([
      swatch(svg("rect", { class: "sample-cell line", x: 2, y: 2, width: 18, height: 18 })),
      "white rows: the lines each team lines up on for the pull",
    ]);
  ring("actionable", "yellow ring: a piece you can act with");
  ring("selected", "green ring: the piece you chose — click a green space");
  items.push([
    swatch(svg("circle", { class: "holder-ring", cx: 11, cy: 11, r: 8 })),
    `dashed ring: holds the ${ballKind}`,
  ]);
  if (ballKind !== "ball")
    items.push([
      swatch(svg("circle", { class: "disc", cx: 11, cy: 11, r: 6 })),
      "white circle: the disc",
    ]);
  else
    items.push([
      swatch(svg("ellipse", { class: "ball", cx: 11, cy: 11, rx: 8, ry: 5 })),
      "brown oval: the ball",
    ]);
  items.push([
    swatch(svg("rect", { class: "sample-cell target", x: 2, y: 2, width: 18, height: 18 })),
    "green spaces: where the chosen piece can go — click one",
  ]);
  items.push([
    swatch(svg("rect", { class: "sample-cell cell-target", x: 2, y: 2, width: 18, height: 18 })),
    "yellow spaces with a dotted edge: a move on their own — click one",
  ]);
  items.push([
    swatch(svg("rect", { class: "sample-cell last", x: 2, y: 2, width: 18, height: 18 })),
    "outlined spaces: the last move",
  ]);
  const markKinds = new Set(board.marks.map((m) => m.kind));
  const markText = {
    cone: "orange triangle: a cone",
    stealth: "purple dashed ring: a stealth space",
    path: "dots: the path",
    punt: "dots: the punt line",
    image: "grey counter: an image (which one is real is hidden)",
    vanished: "dashed circle: a vanished player",
    pothole: "brown dot: a pothole",
  };
  for (const kind of markKinds) if (markText[kind]) items.push([null, markText[kind]]);
  return el(
    "div",
    { class: "card legend", "data-testid": "legend" },
    el("h2", {}, "Legend"),
    el(
      "ul",
      {},
      items.map(([icon, text]) => el("li", {}, icon, text)),
    ),
  );
}

const PIPS = {
  1: [[11, 11]],
  2: [
    [6, 6],
    [16, 16],
  ],
  3: [
    [6, 6],
    [11, 11],
    [16, 16],
  ],
  4: [
    [6, 6],
    [16, 6],
    [6, 16],
    [16, 16],
  ],
  5: [
    [6, 6],
    [16, 6],
    [11, 11],
    [6, 16],
    [16, 16],
  ],
  6: [
    [6, 5],
    [16, 5],
    [6, 11],
    [16, 11],
    [6, 17],
    [16, 17],
  ],
};

// One chance event drawn as a die: a single d6 with its pips, a sum as a die showing the
// total (the engine rolls a sum as one event), a named face (strategy die, toss) as a word.
export function die(action, fresh) {
  const match = /^(?:(\d*)d6)=(\d+)$/.exec(action);
  const box = el("span", { class: `die${fresh ? " rolling" : ""}`, title: action });
  if (match && (match[1] === "" || match[1] === "1") && PIPS[match[2]]) {
    const face = swatch(
      svg("rect", { x: 1, y: 1, width: 20, height: 20, rx: 4, class: "die-face" }),
      ...PIPS[match[2]].map(([x, y]) => svg("circle", { cx: x, cy: y, r: 2.1, class: "pip" })),
    );
    box.append(face);
  } else if (match) {
    box.append(
      el("span", { class: "die-total" }, match[2]),
      el("span", { class: "die-kind" }, `${match[1]}d6`),
    );
  } else {
    const [kind, face] = action.split("=");
    box.classList.add("word");
    box.append(
      el("span", { class: "die-total" }, face || action),
      face ? el("span", { class: "die-kind" }, kind) : null,
    );
  }
  return box;
}
