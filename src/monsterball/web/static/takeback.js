// Takeback (docs/web.md, "Takeback"): the button, and the ask another player answers.
import { mayTakeBack } from "./takeback-rule.js";
import { api, el } from "./util.js";

/**
 * @typedef {{type: "takeback", state: "asked" | "declined" | "done" | "none", by?: string,
 *   ply?: number}} TakebackNews
 */

/**
 * The game page's takeback part.
 * @param {{gameId: string, token: string|null, onChange: () => void}} page
 */
export function takebackControl(page) {
  /** @type {TakebackNews | null} */
  let news = null;
  let error = "";
  let busy = false;

  /** @param {string} path */
  async function post(path) {
    busy = true;
    error = "";
    page.onChange();
    try {
      const answer = await api(`/api/games/${page.gameId}/takeback${path}`, {
        method: "POST",
        body: { token: page.token },
      });
      if (answer.type === "takeback") news = answer;
    } catch (/** @type {any} */ failure) {
      error = failure.message;
    }
    busy = false;
    page.onChange();
  }

  return {
    /** News from the socket: an ask, its answer. @param {TakebackNews} message */
    receive(message) {
      news = message;
      error = "";
      page.onChange();
    },
    /** The controls for `state` (null: nothing to show). @param {any} state */
    node(state) {
      const asked = news && news.state === "asked" && news.ply === state.game.ply ? news : null;
      const parts = [];
      if (asked && asked.by === state.you) {
        parts.push(
          el("span", { "data-testid": "takeback-waiting" }, "Waiting for your opponent to agree… "),
          el("button", { onclick: () => post("/decline"), disabled: busy }, "Withdraw"),
        );
      } else if (asked && state.you) {
        parts.push(
          el("strong", {}, `${asked.by} asks to take back their last move. `),
          el(
            "button",
            { class: "primary", "data-testid": "takeback-accept", onclick: () => post("/accept") },
            "Allow",
          ),
          " ",
          el(
            "button",
            { "data-testid": "takeback-decline", onclick: () => post("/decline") },
            "Refuse",
          ),
        );
      } else if (mayTakeBack(state)) {
        parts.push(
          el(
            "button",
            {
              "data-testid": "takeback",
              disabled: busy,
              title: "Undo your last move (never past a dice roll or the other side's move)",
              onclick: () => post(""),
            },
            "Take back",
          ),
        );
      }
      if (news && news.state === "declined" && news.ply === state.game.ply && news.by !== state.you)
        parts.push(el("span", { class: "notice" }, ` ${news.by} refused the takeback.`));
      if (error) parts.push(el("span", { class: "error", role: "alert" }, ` ${error}`));
      return parts.length
        ? el("span", { class: "takeback", "data-testid": "takeback-box" }, parts)
        : null;
    },
  };
}
