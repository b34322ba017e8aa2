// Draw offers (docs/web.md, "Draw offers"): the button, the offer the other side answers, and
// where a game can never be drawn, a line that says so.
import { api, el } from "./util.js";

/**
 * @typedef {{type: "draw", state: "offered" | "declined" | "agreed" | "none", by?: string | null,
 *   possible?: boolean, why?: string | null, never?: string | null}} DrawNews
 */

/**
 * The game page's draw part.
 * @param {{gameId: string, token: string|null, onChange: () => void}} page
 */
export function drawControl(page) {
  /** @type {DrawNews} */
  let known = { type: "draw", state: "none" };
  /** @type {DrawNews | null} */
  let declined = null;
  let error = "";
  let busy = false;
  let seenPly = -1;

  async function refresh() {
    try {
      const headers = page.token ? { "seat-token": page.token } : {};
      known = await fetch(`/api/games/${page.gameId}/draw`, { headers }).then((r) => r.json());
    } catch {
      return; // the button stays as it was; the next move asks again
    }
    page.onChange();
  }
  /** @param {string} path */
  async function post(path) {
    busy = true;
    error = "";
    page.onChange();
    try {
      const answer = await api(`/api/games/${page.gameId}/draw${path}`, {
        method: "POST",
        body: { token: page.token },
      });
      if (answer.type === "draw") known = { ...known, ...answer };
    } catch (/** @type {any} */ failure) {
      error = failure.message;
    }
    busy = false;
    page.onChange();
  }
  refresh();

  return {
    /** News from the socket: an offer, its answer. @param {DrawNews} message */
    receive(message) {
      if (message.state === "declined") declined = message;
      known = { ...known, state: message.state === "offered" ? "offered" : "none", by: message.by };
      error = "";
      page.onChange();
    },
    /** The controls for `state` (null: nothing to show). @param {any} state */
    node(state) {
      if (!state.you || state.game.status !== "playing") return null;
      if (state.game.ply !== seenPly) {
        // A move by the other side ends an offer: ask again (once per move).
        if (seenPly >= 0 && known.state === "offered") refresh();
        seenPly = state.game.ply;
      }
      // Four coaches: a teammate's offer is the side's own (only the other side answers).
      const seatOf = (/** @type {string | null | undefined} */ name) =>
        (state.chairs || []).find((/** @type {any} */ c) => c.name === name)?.seat;
      const theirSeat = seatOf(known.by);
      const ours =
        known.by === state.you || (theirSeat !== undefined && theirSeat === seatOf(state.you));
      const parts = [];
      if (known.never) {
        parts.push(
          el("span", { class: "muted", "data-testid": "no-draw" }, `No draws: ${known.never}.`),
        );
      } else if (known.state === "offered" && ours) {
        parts.push(
          el("span", { "data-testid": "draw-waiting" }, "Draw offered: waiting for the answer… "),
          el("button", { onclick: () => post("/decline"), disabled: busy }, "Withdraw"),
        );
      } else if (known.state === "offered") {
        parts.push(
          el("strong", {}, `${known.by} offers a draw. `),
          el(
            "button",
            { class: "primary", "data-testid": "draw-accept", onclick: () => post("/accept") },
            "Accept draw",
          ),
          " ",
          el(
            "button",
            { "data-testid": "draw-decline", onclick: () => post("/decline") },
            "Decline",
          ),
        );
      } else if (known.possible) {
        parts.push(
          el(
            "button",
            {
              "data-testid": "draw-offer",
              disabled: busy,
              title: "Offer to end the game drawn as it stands; it lapses when they move",
              onclick: () => post(""),
            },
            "Offer a draw",
          ),
        );
      }
      if (declined && declined.by !== state.you && known.state !== "offered")
        parts.push(el("span", { class: "notice" }, ` ${declined.by} declined the draw.`));
      if (error) parts.push(el("span", { class: "error", role: "alert" }, ` ${error}`));
      return parts.length ? el("span", { class: "draw", "data-testid": "draw-box" }, parts) : null;
    },
  };
}
