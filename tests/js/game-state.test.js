// Unit tests of the game page's pure logic (src/monsterball/web/static/game-state.js), run by
// `make js` with Node's own test runner.
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  bannerText,
  cellClick,
  guide,
  lastMoveCells,
  lastMoveSpaces,
  mergeMoves,
  panelInWords,
  resultForYou,
  scoringEntry,
} from "../../src/monsterball/web/static/game-state.js";

const piece = (id, cell, team = 0) => ({
  id,
  cell,
  team,
  label: id,
  title: id,
  size: 1,
  flags: [],
});
const board = (pieces) => ({ cols: 8, rows: 20, pieces, ball: null, panel: [] });
const entry = (ply, action, events = [], by = "A", banner = "", scored_at = null) => ({
  ply,
  by,
  action,
  events,
  banner,
  scored_at,
});

test("a click on a stack whose pieces can each act asks which one", () => {
  const pieces = [piece("A1", "f2"), piece("A2", "f2"), piece("B3", "f2", 1)];
  const legal = [
    { a: "tackle A1 f2", piece: "A1", cell: "f2" },
    { a: "tackle A2 f2", piece: "A2", cell: "f2" },
  ];
  const click = cellClick({ legal, pieces, selected: null }, "f2");
  assert.equal(click.kind, "stack");
  assert.deepEqual(click.kind === "stack" && click.pieces.map((p) => p.id), ["A1", "A2"]);
  // Picking A2 from the stack selects it; its target is then one more click.
  assert.deepEqual(cellClick({ legal, pieces, selected: null }, "f2", "A2"), {
    kind: "select",
    piece: "A2",
  });
  assert.deepEqual(cellClick({ legal, pieces, selected: "A2" }, "f2"), {
    kind: "send",
    action: "tackle A2 f2",
  });
});

test("a stack with one piece that can act goes straight to it", () => {
  const pieces = [piece("A1", "f2"), piece("A2", "f2"), piece("B3", "f2", 1)];
  const legal = [{ a: "tackle A2 f2", piece: "A2", cell: "f2" }];
  assert.deepEqual(cellClick({ legal, pieces, selected: null }, "f2"), {
    kind: "select",
    piece: "A2",
  });
});

test("a lone piece's only action is sent; several are a choice; an empty space deselects", () => {
  const pieces = [piece("A1", "c3")];
  const one = [{ a: "pass A1", piece: "A1", cell: null }];
  assert.deepEqual(cellClick({ legal: one, pieces, selected: null }, "c3"), {
    kind: "send",
    action: "pass A1",
  });
  const two = [...one, { a: "hold A1", piece: "A1", cell: null }];
  assert.equal(cellClick({ legal: two, pieces, selected: null }, "c3").kind, "choose");
  assert.deepEqual(cellClick({ legal: two, pieces, selected: "A1" }, "h9"), {
    kind: "select",
    piece: null,
  });
});

test("the last move's spaces: every origin of a turn of runs, none after a line-up", () => {
  const before = board([piece("A1", "a1"), piece("A2", "b1"), piece("B1", "h8", 1)]);
  const after = board([piece("A1", "a3"), piece("A2", "b4"), piece("B1", "h8", 1)]);
  const log = [entry(5, "A2-b4")];
  assert.deepEqual([...lastMoveSpaces(before, after, log)].sort(), ["a1", "a3", "b1", "b4"]);
  const many = (cells) => board(cells.map((c, i) => piece(`P${i}`, c)));
  const reset = lastMoveSpaces(
    many(["a1", "a2", "a3", "a4", "a5"]),
    many(["b1", "b2", "b3", "b4", "b5"]),
    [entry(9, "throw A1 e19", ["Point for team A! A 1 - B 0."])],
  );
  assert.deepEqual([...reset], []);
  assert.deepEqual([...lastMoveCells([entry(1, "A3-e7"), entry(2, "d6=4", [], "dice")])], ["e7"]);
});

test("the move list grows by the new entries and asks for all of them after a gap", () => {
  const one = mergeMoves([], [entry(1, "a"), entry(2, "b")]);
  assert.deepEqual(one, { moves: [entry(1, "a"), entry(2, "b")], reload: false });
  const two = mergeMoves(one.moves, [entry(2, "b"), entry(3, "c")]);
  assert.equal(two.moves.length, 3);
  assert.equal(mergeMoves(two.moves, [entry(7, "g")]).reload, true);
  assert.equal(mergeMoves([], [entry(40, "x")]).reload, true);
});

test("banners: a score's before anything else, else the first entry's that has one", () => {
  const turnover = entry(3, "x", ["Stall: ten seconds (count 10); turnover."], "A", "Turnover");
  const plain = entry(4, "y", ["A3 runs to e7."]);
  const events = ["B2 intercepts.", "Callahan! B2 intercepts in his own end zone."];
  const point = entry(5, "z", events, "B", "Point!", 1);
  assert.equal(bannerText([plain]), null);
  assert.equal(bannerText([plain, turnover]), "Turnover");
  assert.equal(bannerText([turnover, point]), "Point!");
  // The server names the banner (Event.headline); the sentences are never parsed for one.
  assert.equal(bannerText([entry(6, "x", ["Touchdown team A: A 7 - B 0."])]), null);
  assert.equal(scoringEntry([plain, point, turnover])?.ply, 5);
  assert.equal(scoringEntry([plain, turnover]), null);
});

test("results in the player's words", () => {
  assert.equal(resultForYou("team A wins, A 2 - B 1", "A"), "You won — team A wins, A 2 - B 1");
  assert.equal(
    resultForYou("team A wins: team B resigned", "B"),
    "You lost — team A wins: team B resigned",
  );
  assert.equal(resultForYou("draw, A 1 - B 1", "A"), "A draw — draw, A 1 - B 1");
  assert.equal(
    resultForYou("draw by agreement, A 1 - B 1", "B"),
    "A draw by agreement — A 1 - B 1",
  );
  assert.equal(resultForYou("team A wins, A 2 - B 1", null), "team A wins, A 2 - B 1");
});

test("the guide says what to click", () => {
  const legal = [{ a: "A1-c4", piece: "A1", cell: "c4" }];
  assert.match(guide(legal, null, new Set()), /yellow ring, then one of the green spaces/);
  assert.match(guide([{ a: "end", piece: null, cell: null }], null, new Set()), /“end”/);
});

test("the guide takes a game's own click words from its data, and names no game itself", () => {
  const words = {
    aim: [/^throw /, "Click a green space to throw to $piece: $piece catches there."],
    ring: [/^pass /, "Click a teammate with a yellow ring to pass to him."],
  };
  const clickText = (kind, a) => (words[kind][0].test(a) ? words[kind][1] : null);
  const aiming = [
    { a: "throw A4 e9", piece: "A4", cell: "e9" },
    { a: "A4-e9", piece: "A4", cell: "e9" },
  ];
  assert.equal(
    guide(aiming, "A4", new Set(), clickText),
    "Click a green space to throw to A4: A4 catches there.",
  );
  // Without the game's words (not loaded yet, or another game): the plain sentence.
  assert.match(guide(aiming, "A4", new Set()), /^Click a green space to move A4 there/);
  const passes = [
    { a: "pass A2", piece: "A2", cell: null },
    { a: "pass A3", piece: "A3", cell: null },
  ];
  assert.equal(guide(passes, null, new Set(), clickText), words.ring[1]);
  // Ringed pieces that do different things get the general sentence.
  const mixed = [...passes, { a: "take A1", piece: "A1", cell: null }];
  assert.match(guide(mixed, null, new Set(), clickText), /yellow ring to act with it/);
});

test("the scoring position: the board before the move, with its catch or run applied", async () => {
  const { scoringBoard } = await import("../../src/monsterball/web/static/game-state.js");
  const before = {
    ...board([piece("A1", "d9"), piece("A2", "d1")]),
    ball: { cell: "d9", held: true },
  };
  const caught = scoringBoard(
    before,
    entry(
      401,
      "pass A2",
      [
        "A1 throws d9 -> d1.",
        "A2 catches at d1.",
        "Point for team A! A 1 - B 1.",
        "New point: team B pulls from d5.", // after the score: not where the disc is
      ],
      "A",
      "Point!",
      2,
    ),
  );
  assert.deepEqual(caught.ball, { cell: "d1", held: true });
  assert.deepEqual(
    caught.pieces.map((p) => p.cell),
    ["d9", "d1"],
  );
  const ran = scoringBoard(
    before,
    entry(
      7,
      "A1-d13",
      ["A1 runs d9 -> d13.", "Touchdown team A: A 6 - B 0."],
      "A",
      "Touchdown!",
      1,
    ),
  );
  assert.equal(ran.pieces[0].cell, "d13");
});

test("the panel says who is on offense and who returns a kick in the player's words", () => {
  const carrier = { ...piece("A4", "e9", 0), team: "A", flags: ["holder"] };
  const panel = /** @type {[string, string][]} */ ([
    ["Score", "A 0 - B 0"],
    ["Offense", "B"],
  ]);
  const returning = { ...board([carrier]), panel };
  assert.deepEqual(panelInWords(returning, "A"), [
    ["Score", "A 0 - B 0"],
    ["Return", "You (A) return the ball (Team B kicked or threw it)"],
  ]);
  assert.deepEqual(panelInWords(returning, "B")[1], [
    "Return",
    "Team A returns the ball (You (B) kicked or threw it)",
  ]);
  const carried = { ...board([{ ...carrier, team: "B" }]), panel };
  assert.deepEqual(panelInWords(carried, "B")[1], ["On offense", "You (B)"]);
  assert.deepEqual(panelInWords(carried, null)[1], ["On offense", "Team B"]);
});

test("a throw outlines where the disc flew from and where it came down", () => {
  const before = {
    ...board([piece("A1", "b3"), piece("A2", "e7")]),
    ball: { cell: "b3", held: true },
  };
  const after = { ...before, ball: { cell: "e7", held: true } };
  assert.deepEqual([...lastMoveSpaces(before, after, [entry(5, "pass A2")])].sort(), ["b3", "e7"]);
  // Nothing moved (an "end"): nothing outlined.
  assert.deepEqual([...lastMoveSpaces(before, before, [entry(6, "end")])], []);
});
