// A game the opponent left (docs/web.md, "Abandoned games"): while the other side's
// connection is gone the page says so, and after the stated time offers to claim the win or
// keep waiting.
import { api, el } from "./util.js";

const POLL_MS = 3000;

/**
 * @typedef {{gone: Record<string, number>, claim_after: number, claim_in: number | null,
 *   may_claim: boolean}} Absence
 */

/**
 * The game page's absence notice (online games, for players).
 * @param {{gameId: string, token: string|null, current: () => any, onChange: () => void}} page
 */
export function abandonControl(page) {
  /** @type {Absence | null} */
  let told = null;
  let waiting = false; // "keep waiting" clicked: quiet until the opponent is back and gone again
  let error = "";

  async function poll() {
    const state = page.current();
    if (state && state.you && state.game.mode === "online" && state.game.status === "playing") {
      try {
        const now = await api(`/api/games/${page.gameId}/abandon`, { token: page.token });
        if (now.claim_in === null) waiting = false; // back again
        if (JSON.stringify(now) !== JSON.stringify(told)) {
          told = now;
          page.onChange();
        }
      } catch {
        /* asked again at the next poll */
      }
    }
    setTimeout(poll, POLL_MS);
  }
  setTimeout(poll, POLL_MS);

  async function claim() {
    try {
      await api(`/api/games/${page.gameId}/abandon`, {
        method: "POST",
        body: { token: page.token },
      });
    } catch (/** @type {any} */ failure) {
      error = failure.message;
      page.onChange();
    }
  }

  return {
    /** The notice for `state` (null: nothing to say). @param {any} state */
    node(state) {
      if (!told || told.claim_in === null || state.game.status !== "playing" || waiting)
        return null;
      const who = Object.keys(told.gone)
        .filter((name) => told && told.gone[name] > 0)
        .join(" and ");
      if (!told.may_claim)
        return el(
          "p",
          { class: "notice", role: "status", "data-testid": "abandon-wait" },
          `${who}'s connection is gone. If they do not come back, you may claim the win in ` +
            `${Math.ceil(told.claim_in)} s.`,
        );
      return el(
        "div",
        { class: "offer", role: "status", "data-testid": "abandon" },
        el("strong", {}, `${who} has left the game. `),
        el(
          "button",
          { class: "primary", "data-testid": "claim-win", onclick: claim },
          "Claim the win",
        ),
        " ",
        el(
          "button",
          {
            "data-testid": "keep-waiting",
            onclick: () => {
              waiting = true;
              page.onChange();
            },
          },
          "Keep waiting",
        ),
        error ? el("span", { class: "error", role: "alert" }, ` ${error}`) : null,
      );
    },
  };
}
