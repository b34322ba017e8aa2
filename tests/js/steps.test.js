// Unit tests of a reply shown step by step (src/monsterball/web/static/steps.js) and of the
// Midway type codes (monsters.js), run by `make js` with Node's own test runner.
import assert from "node:assert/strict";
import { test } from "node:test";

import { pieceKinds, typeCodes } from "../../src/monsterball/web/static/monsters.js";
import {
  HOLD_MS,
  framesFor,
  lastTurnStart,
  planSteps,
  stepQueue,
} from "../../src/monsterball/web/static/steps.js";

const entry = (ply, by, action, events = [], banner = "", scored_at = null) => ({
  ply,
  by,
  action,
  events,
  banner,
  scored_at,
});
const board = (tag) => ({ cols: 8, rows: 20, pieces: [], ball: null, panel: [["tag", tag]] });

// A Huck + Monster throw answered at once: the catch die, the bot's strategy die, the turnover
// and the next roll, all in one update (issue 32 item 9).
const reply = [
  entry(28, "A", "throw A1 c3", ["The disc flies toward A1 at c3 (f1 g1 g2 c3)."]),
  entry(29, "dice", "3d6=9", ["Team A rolls 9 for the catch."]),
  entry(30, "B", "strategy", []),
  entry(31, "dice", "strategy=double", ["The defence doubles: turnover!"], "Turnover"),
  entry(32, "dice", "3d6=11", ["Team B rolls 11 to move."]),
];

test("each step of a reply but the last is a frame; dice that end it roll in with it", () => {
  const plans = planSteps(reply, true);
  assert.deepEqual(
    plans.map((p) => [p.step, p.kind]),
    [
      [28, "step"],
      [29, "step"],
      [30, "step"],
    ],
  );
  // The turnover's die is the update's last step (the state itself, with its banner); the
  // plain roll after it comes with it.
  assert.ok(plans.every((p) => p.ms >= 150));
});

test("a step that tells a turnover stays longer than a plain one", () => {
  const plans = planSteps([...reply.slice(0, 4), entry(33, "B", "B1-e3", [])], true);
  const turnover = plans.find((p) => p.step === 31);
  const plain = plans.find((p) => p.step === 30);
  assert.ok(turnover && plain && turnover.ms > plain.ms, JSON.stringify(plans));
});

test("without pacing only a score is held, the last move too", () => {
  assert.deepEqual(planSteps(reply, false), []);
  const scored = [entry(7, "A", "A2-e19", ["Point for team A! A 1 - B 0."], "Point!", 0)];
  assert.deepEqual(planSteps(scored, false), [
    { entry: scored[0], step: 7, kind: "score", ms: HOLD_MS },
  ]);
  // Paced, a score in the middle of a reply is held, then its line-up is a step of its own.
  const more = [...scored, entry(8, "B", "pull e5", [])];
  assert.deepEqual(
    planSteps(more, true).map((p) => [p.step, p.kind]),
    [
      [7, "score"],
      [7, "step"],
    ],
  );
});

test("many steps at once are sped up to a bounded time", () => {
  const placements = [...Array(40).keys()].map((i) => entry(i + 1, "B", `place c${i + 1}`));
  const plans = planSteps(placements, true);
  assert.equal(plans.length, 39);
  assert.ok(plans.reduce((sum, p) => sum + p.ms, 0) <= 8000 + 39);
});

test("the last side's turn starts at its first move after the other side's", () => {
  const turn = [
    entry(21, "A", "A6-b5"),
    entry(22, "dice", "3d6=15"),
    entry(23, "B", "B1-e3"),
    entry(24, "B", "B2-c7"),
    entry(25, "B", "B2-b7"),
    entry(26, "dice", "3d6=10"),
  ];
  assert.equal(lastTurnStart(turn), 2);
  assert.equal(lastTurnStart(turn.slice(0, 1)), 0);
});

test("a score's frame is the board it was made from with the run applied", async () => {
  const before = {
    ...board("before"),
    pieces: [{ id: "A2", cell: "e17", team: 0, label: "2", title: "A2", size: 1, flags: [] }],
    ball: { cell: "e17", held: true },
  };
  const plans = planSteps([entry(7, "A", "A2-e19", ["Point for team A!"], "Point!", 0)], false);
  const asked = [];
  const frames = framesFor(plans, (step) => {
    asked.push(step);
    return Promise.resolve(before);
  });
  const shown = await frames[0].board;
  assert.deepEqual(asked, [6]);
  assert.equal(shown.pieces[0].cell, "e19");
});

test("the queue shows each frame in order, then the live state; skip goes straight there", async () => {
  const seen = [];
  const queue = stepQueue((frame) => {
    seen.push(frame ? `${frame.kind}:${frame.board.panel[0][1]}` : "live");
    return 0;
  });
  const frames = [1, 2].map((n) => ({
    entry: entry(n, "A", "x"),
    step: n,
    kind: /** @type {const} */ ("step"),
    ms: 5,
    board: Promise.resolve(board(`s${n}`)),
  }));
  queue.add(frames, board("held"), 0);
  assert.equal(queue.current()?.kind, "wait");
  await new Promise((resolve) => setTimeout(resolve, 400));
  assert.deepEqual(seen, ["step:s1", "step:s2", "live"]);
  assert.equal(queue.current(), null);
  seen.length = 0;
  queue.add(
    frames.map((f) => ({ ...f, ms: 60_000 })),
    board("held"),
    0,
  );
  await new Promise((resolve) => setTimeout(resolve, 20));
  queue.skip();
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.deepEqual(seen.slice(0, 1), ["step:s1"]);
  assert.equal(seen[seen.length - 1], "live");
  assert.ok(!seen.includes("step:s2"));
  assert.equal(queue.current(), null);
});

test("a board that cannot be fetched ends the steps at the live state", async () => {
  const seen = [];
  const queue = stepQueue((frame) => {
    seen.push(frame ? frame.kind : "live");
    return 0;
  });
  const failed = Promise.reject(new Error("429"));
  failed.catch(() => {});
  queue.add(
    [{ entry: entry(1, "A", "x"), step: 1, kind: "step", ms: 5, board: failed }],
    board("h"),
    0,
  );
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.deepEqual(seen, ["live"]);
});

test("Midway type codes are two letters, unique, the same for every game", () => {
  const types = ["gnoll", "gnome", "goblin", "hobgoblin", "human", "orc", "storm-giant"];
  const codes = typeCodes(types);
  assert.deepEqual(codes, {
    gnoll: "Gn",
    gnome: "Ge",
    goblin: "Go",
    hobgoblin: "Ho",
    human: "Hu",
    orc: "Or",
    "storm-giant": "SG",
  });
  assert.equal(new Set(Object.values(typeCodes(["aa", "aa2", "aa3", "ab"]))).size, 4);
  const kinds = pieceKinds({ types: types.map((type) => ({ type })), players: { A4: "orc" } });
  assert.deepEqual(kinds.get("A4"), { code: "Or", type: "orc" });
  assert.equal(pieceKinds(null).size, 0);
});
