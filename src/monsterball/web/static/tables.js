// The tables of the lobby and the player pages: a header row, then a row per item, in a box
// that scrolls sideways on a narrow screen.
import { el } from "./util.js";

/**
 * @param {Record<string, string>} attrs the table's own attributes (its data-testid)
 * @param {string[]} headers
 * @param {Node[]} rows made by tableRow
 */
export function scrollTable(attrs, headers, rows) {
  return el(
    "div",
    { class: "table-scroll" },
    el(
      "table",
      { class: "games", ...attrs },
      el(
        "tr",
        {},
        headers.map((h) => el("th", {}, h)),
      ),
      rows,
    ),
  );
}

/**
 * @param {Record<string, string>} attrs the row's attributes
 * @param {any[]} cells each cell's content (text, a node, a list of them)
 */
export function tableRow(attrs, cells) {
  return el(
    "tr",
    attrs,
    cells.map((c) => el("td", {}, c)),
  );
}
