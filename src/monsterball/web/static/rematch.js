// Rematches by consent (docs/web.md, "Rematch"): a player asks, the others are offered it on
// their game pages and lobbies, and each gets its own new link once everyone agreed.
import { remember } from "./seats.js";
import { api, el } from "./util.js";

/**
 * @typedef {{type: "rematch", state: "offered" | "started" | "declined" | "none",
 *   agreed?: string[], waiting?: string[], id?: string | null, you?: string | null, seat?: string | null,
 *   by?: string}} RematchNews
 */

/** Open the new game at the seat link `you` (kept in the seat store), or as a spectator. */
export function openRematch(
  /** @type {{id?: string|null, you?: string|null, watch?: string}} */ made,
  /** @type {string|null} */ seat,
) {
  if (made.you && made.id && seat) remember(made.id, [{ name: seat, url: made.you }]);
  location.href = made.you || made.watch || `/play/${made.id}`;
}

/**
 * The end panel's rematch part: a button for the players (bots-only games: for anyone), the
 * offer with accept / decline, or the wait for the others.
 * @param {{gameId: string, token: string|null, you: string|null, humans: number, onChange: () => void}} page
 */
export function rematchControl(page) {
  /** @type {RematchNews | null} */
  let news = null;
  let error = "";
  let busy = false;

  async function ask() {
    busy = true;
    error = "";
    page.onChange();
    try {
      const made = await api(`/api/games/${page.gameId}/rematch`, {
        method: "POST",
        body: { token: page.token },
      });
      if (made.state === "started") openRematch(made, made.seat);
      else news = made;
    } catch (e) {
      error = /** @type {Error} */ (e).message;
    }
    busy = false;
    page.onChange();
  }

  async function decline() {
    try {
      await api(`/api/games/${page.gameId}/rematch/decline`, {
        method: "POST",
        body: { token: page.token },
      });
    } catch (e) {
      error = /** @type {Error} */ (e).message;
    }
    news = null;
    page.onChange();
  }

  return {
    /** News of the offer: from the socket (`live`: a rematch this player asked for has just
     * started, so the page goes there) or the page's first look. */
    receive(/** @type {RematchNews} */ message, live = true) {
      if (live && message.state === "started" && message.you) {
        openRematch(message, message.seat || null);
        return;
      }
      news = message.state === "none" ? null : message;
      page.onChange();
    },
    async load() {
      if (!page.you) return;
      try {
        this.receive(await api(`/api/games/${page.gameId}/rematch`, { token: page.token }), false);
      } catch {
        /* asked again at the next message */
      }
    },
    node() {
      if (!page.you && page.humans > 0) return null; // spectators of people's games
      const label = page.humans ? "Rematch (seats swapped)" : "Watch a rematch (sides swapped)";
      const button = el(
        "button",
        { class: "primary", "data-testid": "rematch", disabled: busy, onclick: ask },
        label,
      );
      const parts = [];
      if (news && news.state === "offered" && page.you && !(news.agreed || []).includes(page.you)) {
        parts.push(
          el(
            "div",
            { class: "offer", "data-testid": "rematch-offer", role: "status" },
            el(
              "strong",
              {},
              `${(news.agreed || []).join(" and ")} offers a rematch (seats swapped). `,
            ),
            el(
              "button",
              { class: "primary", "data-testid": "rematch-accept", onclick: ask },
              "Accept",
            ),
            " ",
            el("button", { "data-testid": "rematch-decline", onclick: decline }, "Decline"),
          ),
        );
      } else if (news && news.state === "offered") {
        parts.push(
          el(
            "div",
            { class: "offer", "data-testid": "rematch-waiting", role: "status" },
            `Rematch offered: waiting for ${(news.waiting || []).join(" and ")} to accept. `,
            el("button", { "data-testid": "rematch-withdraw", onclick: decline }, "Withdraw"),
          ),
        );
      } else if (news && news.state === "started" && news.you) {
        parts.push(
          el(
            "div",
            { class: "offer", "data-testid": "rematch-started" },
            el(
              "a",
              { href: news.you, "data-testid": "rematch-you" },
              "Open your seat in the rematch",
            ),
          ),
        );
      } else {
        if (news && news.state === "declined")
          parts.push(
            el(
              "p",
              { class: "notice", "data-testid": "rematch-declined" },
              `${news.by} declined the rematch.`,
            ),
          );
        parts.push(button);
      }
      if (error) parts.push(el("p", { class: "error", role: "alert" }, error));
      return el("div", { class: "rematch", "data-testid": "rematch-box" }, parts);
    },
  };
}

/**
 * The lobby's notice of a rematch offered to this account (its lobby socket told it).
 * @param {{game: string, by: string|null, url: string}} message
 */
export function lobbyOffer(message) {
  const box = el("div", {
    class: "card offer",
    "data-testid": "lobby-rematch-offer",
    role: "status",
  });
  const accept = async () => {
    try {
      const made = await api(`/api/games/${message.game}/rematch`, { method: "POST", body: {} });
      if (made.state === "started") openRematch(made, made.seat);
      else location.href = message.url;
    } catch (e) {
      box.append(el("p", { class: "error" }, /** @type {Error} */ (e).message));
    }
  };
  const decline = async () => {
    await api(`/api/games/${message.game}/rematch/decline`, { method: "POST", body: {} }).catch(
      () => {},
    );
    box.remove();
  };
  box.append(
    el("strong", {}, `${message.by || "Your opponent"} offers a rematch. `),
    el("a", { href: message.url }, "see the game"),
    " ",
    el(
      "button",
      { class: "primary", onclick: accept, "data-testid": "lobby-rematch-accept" },
      "Accept",
    ),
    " ",
    el("button", { onclick: decline, "data-testid": "lobby-rematch-decline" }, "Decline"),
  );
  return box;
}
