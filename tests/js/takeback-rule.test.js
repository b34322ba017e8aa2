// Unit tests of when the game page offers "Take back" (static/takeback-rule.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import { mayTakeBack } from "../../src/monsterball/web/static/takeback-rule.js";

const chairs = [
  { name: "A", seat: 0, kind: "human" },
  { name: "B", seat: 1, kind: "bot" },
];
const at = (by, game = {}, you = "A") => ({
  you,
  chairs,
  log: [{ by: "dice" }, { by }],
  game: { status: "playing", rated: false, mode: "bot", ...game },
});

test("your own last move can be taken back", () => {
  assert.equal(mayTakeBack(at("A")), true);
});

test("never a die's, a bot's or another seat's move", () => {
  assert.equal(mayTakeBack(at("dice")), false);
  assert.equal(mayTakeBack(at("B")), false);
  const online = [chairs[0], { name: "B", seat: 1, kind: "human" }];
  assert.equal(mayTakeBack({ ...at("B", { mode: "online" }), chairs: online }), false);
  assert.equal(mayTakeBack({ ...at("B", { mode: "hotseat" }), chairs: online }), true);
});

test("not in rated or finished games, nor for spectators", () => {
  assert.equal(mayTakeBack(at("A", { rated: true })), false);
  assert.equal(mayTakeBack(at("A", { status: "finished" })), false);
  assert.equal(mayTakeBack(at("A", {}, null)), false);
});
