// The time controls the lobby offers (docs/web.md, "Clocks"), for a new game and for a
// challenge alike: [value, label, the clock as the API takes it].
import { el } from "./util.js";

/** @typedef {{kind: string, minutes?: number, increment?: number, days?: number}} Clock */

/** @type {[string, string, Clock | null][]} */
export const TIME_CONTROLS = [
  ["none", "no clock", null],
  ["1+0", "1 min", { kind: "realtime", minutes: 1, increment: 0 }],
  ["3+2", "3 min + 2 s", { kind: "realtime", minutes: 3, increment: 2 }],
  ["5+3", "5 min + 3 s", { kind: "realtime", minutes: 5, increment: 3 }],
  ["10+5", "10 min + 5 s", { kind: "realtime", minutes: 10, increment: 5 }],
  ["30+20", "30 min + 20 s", { kind: "realtime", minutes: 30, increment: 20 }],
  ["1d", "1 day a move", { kind: "correspondence", days: 1 }],
  ["3d", "3 days a move", { kind: "correspondence", days: 3 }],
];

/** @param {Clock | null} clock */
export function clockText(clock) {
  if (!clock) return "no clock";
  return clock.kind === "realtime"
    ? `${clock.minutes} min + ${clock.increment} s`
    : `${clock.days} day${clock.days === 1 ? "" : "s"} a move`;
}

/**
 * A select of the time controls, and a function giving the chosen clock.
 * @param {Record<string, string>} attrs
 * @returns {{select: HTMLSelectElement, chosen: () => Clock | null}}
 */
export function clockChoice(attrs) {
  const select = /** @type {HTMLSelectElement} */ (
    el(
      "select",
      attrs,
      TIME_CONTROLS.map(([value, label]) => el("option", { value }, label)),
    )
  );
  const chosen = () => TIME_CONTROLS.find(([v]) => v === select.value)[2];
  return { select, chosen };
}
