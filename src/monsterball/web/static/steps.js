// One update's steps shown one by one (issue 32 item 9). A reply arrives with the move it
// answers (the bot's runs, its strategy die, a turnover, the next roll): each step but the
// last is drawn from the replay API's board after it, with its own animation and banner, for
// a moment; a score's position is held before the line-up. `planSteps` is pure (unit-tested
// in tests/js/steps.test.js); `stepQueue` runs the frames on timers; play.js feeds both.
import { bannerText, scoringBoard, scoringEntry } from "./game-state.js";

/**
 * @typedef {import("./game-state.js").Entry} Entry
 * @typedef {import("./game-state.js").Board} Board
 * @typedef {{entry: Entry, step: number, kind: "step" | "score", ms: number}} Plan
 * @typedef {Plan & {board: Promise<Board>}} Pending
 * @typedef {{entry: Entry | null, step: number, kind: "step" | "score" | "wait", ms: number,
 *   board: Board, index: number, count: number}} Frame
 */

export const HOLD_MS = 1800; // a scoring position stays this long before the line-up
const DICE_MS = 700;
const PLACE_MS = 300; // a line-up placement: many come at once
const MOVE_MS = 600; // at least; a frame also lasts its animation and a little more
const BANNER_MS = 1300; // a step that says "Turnover" stays long enough to read it
const MOST_MS = 8000; // an update's steps together (scores apart) are sped up to this

/**
 * The frames an update's new entries are shown as before its final state: every entry but
 * the last is a step, except plain dice that end the update (they roll in with the final
 * state; a die that tells a turnover is a step of its own);
 * an entry that scores is held first, the last one too. Without `pace`, only scores are held.
 * @param {Entry[]} entries the entries this update brought, in order
 * @param {boolean} pace whether a reply is shown step by step
 * @returns {Plan[]}
 */
export function planSteps(entries, pace) {
  let end = entries.length;
  while (end > 1 && entries[end - 1].by === "dice" && !bannerText([entries[end - 1]])) end--;
  /** @type {Plan[]} */
  const plans = [];
  entries.forEach((entry, i) => {
    if (scoringEntry([entry])) plans.push({ entry, step: entry.ply, kind: "score", ms: HOLD_MS });
    if (pace && i < end - 1)
      plans.push({ entry, step: entry.ply, kind: "step", ms: stepMs(entry) });
  });
  const steps = plans.filter((p) => p.kind === "step");
  const total = steps.reduce((sum, p) => sum + p.ms, 0);
  if (total > MOST_MS)
    for (const p of steps) p.ms = Math.max(150, Math.round((p.ms * MOST_MS) / total));
  return plans;
}

/** @param {Entry} entry */
function stepMs(entry) {
  if (bannerText([entry])) return BANNER_MS;
  if (entry.by === "dice") return DICE_MS;
  return /^place\b/.test(entry.action) ? PLACE_MS : MOVE_MS;
}

/**
 * Where the last side's turn in these entries starts (dice between its moves are part of
 * it): the outline after the steps covers that turn's runs only.
 * @param {Entry[]} entries
 * @returns {number} an index into entries
 */
export function lastTurnStart(entries) {
  let i = entries.length - 1;
  while (i > 0 && entries[i].by === "dice") i--;
  const by = entries[i] ? entries[i].by : null;
  let start = i;
  for (let j = i - 1; j >= 0; j--) {
    if (entries[j].by === "dice") continue;
    if (entries[j].by !== by) break;
    start = j;
  }
  return start;
}

/**
 * The frames being played, in order. `show(frame)` draws one (null: the live state again)
 * and returns how long its animation runs, in ms; a frame lasts at least that and a little more.
 * @param {(frame: Frame | null) => number} show
 */
export function stepQueue(show) {
  /** @type {Pending[]} */
  let queue = [];
  /** @type {Frame | null} */
  let current = null;
  let running = false;
  let count = 0; // frames in this run, for "step 2 of 5"
  let index = 0;
  /** @type {(() => void) | null} */
  let wake = null;

  /** @param {number} ms */
  const sleep = (ms) =>
    new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve(undefined);
      };
    });

  async function run() {
    running = true;
    while (queue.length) {
      const next = queue[0];
      /** @type {Board} */
      let board;
      try {
        board = await next.board;
      } catch {
        queue = []; // a board that cannot be had: the live state at once
        break;
      }
      if (queue[0] !== next) continue; // skipped meanwhile
      queue.shift();
      index += 1;
      current = { ...next, board, index, count };
      const animation = show(current);
      await sleep(Math.max(next.ms, animation ? animation + 300 : 0));
    }
    current = null;
    running = false;
    count = index = 0;
    show(null);
  }

  return {
    /**
     * Queue an update's frames; until the first is ready, `holding` (the board on screen) stays.
     * @param {Pending[]} frames
     * @param {Board} holding
     * @param {number} step the step `holding` shows
     */
    add(frames, holding, step) {
      if (!frames.length) return;
      queue.push(...frames);
      count += frames.length;
      if (running) return;
      current = { entry: null, step, kind: "wait", ms: 0, board: holding, index: 0, count };
      run();
    },
    /** The frame on screen (null: the live state). */
    current: () => current,
    /** Straight to the live state. */
    skip() {
      if (!running) return;
      queue = [];
      current = null;
      if (wake) wake();
      show(null);
    },
  };
}

/**
 * An update's frames, each with its board: after a step, its board from `boardAt` (the
 * replay API's); a score, the board its move was made from with the run or catch applied.
 * @param {Plan[]} plans
 * @param {(step: number) => Promise<Board>} boardAt
 * @returns {Pending[]}
 */
export function framesFor(plans, boardAt) {
  return plans.map((p) => ({
    ...p,
    board:
      p.kind === "score"
        ? boardAt(p.step - 1).then((b) => scoringBoard(b, p.entry))
        : boardAt(p.step),
  }));
}
