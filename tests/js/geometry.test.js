// Unit tests of the field's geometry (src/monsterball/web/static/geometry.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  cellName,
  geometry,
  parseCell,
  runPath,
} from "../../src/monsterball/web/static/geometry.js";

const square = { grid: "square", cols: 8, rows: 10, row_labels: {} };
const hex = { grid: "hex", cols: 9, rows: 12, row_labels: {} };

test("cell names and their inverse", () => {
  assert.equal(cellName(0, 0), "a1");
  assert.equal(cellName(7, 19), "h20");
  assert.deepEqual(parseCell("h20"), [7, 19]);
  assert.equal(parseCell("off"), null);
});

test("a flipped field reflects every centre through the middle", () => {
  for (const board of [square, hex]) {
    const plain = geometry(board);
    const turned = geometry(board, true);
    const [x, y] = plain.center(0, 0);
    const [fx, fy] = turned.center(board.cols - 1, board.rows - 1);
    const [px, py] = plain.center(board.cols - 1, board.rows - 1);
    assert.ok(Math.abs(turned.center(0, 0)[0] - (2 * plain.edge + plain.fieldW - x)) < 1e-9);
    assert.ok(Math.abs(turned.center(0, 0)[1] - (2 * plain.edge + plain.fieldH - y)) < 1e-9);
    if (board.grid === "square")
      assert.deepEqual(
        [fx, fy],
        [2 * plain.edge + plain.fieldW - px, 2 * plain.edge + plain.fieldH - py],
      );
  }
});

test("a run goes round what blocks it, by the shortest way", () => {
  const path = runPath(square, "a1", "a3", new Set(["a2"]));
  assert.equal(path?.length, 3); // a1, then b2 (diagonal), then a3
  assert.equal(path?.[0], "a1");
  assert.equal(path?.[2], "a3");
  assert.deepEqual(runPath(hex, "a1", "b1", new Set()), ["a1", "b1"]);
});
