// What the game page asks the API for beside the socket's states: the whole move list, the
// odds of the decisions on offer, the Midway roster, who is connected and who sits where.
// Each answer lands in the page's view model (play.js) and redraws it.
import { api } from "./util.js";

/**
 * @param {any} page the view model
 * @param {{gameId: string, token: string | null, render: () => void}} at
 */
export function playLoaders(page, { gameId, token, render }) {
  const redraw = () => page.state && render();

  async function moves() {
    try {
      page.moves = (await api(`/api/games/${gameId}/moves`, { token })).moves;
      redraw();
    } catch {
      /* the live log still shows the latest moves */
    }
  }

  /** @param {string} what @param {string} path @param {number} ply */
  async function load(what, path, ply) {
    try {
      const answer = await api(path, { token });
      if (answer.ply === ply) {
        page[what] = answer;
        render();
      }
    } catch {
      page[what] = null;
    }
  }

  async function roster() {
    const known = page.roster;
    if (known && !known.drafting && Object.keys(known.players).length >= 20) return;
    try {
      page.roster = await api(`/api/games/${gameId}/roster`);
      render();
    } catch {
      /* the text view has it */
    }
  }

  /** What a new state needs: the odds of the decisions it offers (Huck + Monster throws,
   * Midway dice), the Midway roster. */
  function forState(/** @type {any} */ message) {
    // What the game offers (its contract's hooks): throw odds, decisions priced, a roster.
    const legal = /** @type {{a: string}[]} */ (message.legal);
    const hooks = message.game.hooks;
    if (hooks.odds && legal.some((l) => l.a.split(" ")[0] === hooks.odds))
      load("odds", `/api/games/${gameId}/odds`, message.game.ply);
    if (hooks.priced.length && token && legal.some((l) => hooks.priced.includes(l.a.split(" ")[0])))
      load("outcomes", `/api/games/${gameId}/outcomes`, message.game.ply);
    if (hooks.roster) roster();
  }

  /** Who sits where (accounts, ratings); a logged-in player's seat is claimed first. */
  function people(/** @type {any} */ me) {
    const claimed =
      me && token
        ? api(`/api/games/${gameId}/claim`, { method: "POST", body: { token } }).catch(() => {})
        : Promise.resolve();
    claimed
      .then(() => api(`/api/games/${gameId}/players`))
      .then((found) => {
        page.people.names = found.players;
        page.people.ratings = found.ratings || {};
        redraw();
      })
      .catch(() => {});
  }

  /** The ratings are settled just after the end is told: asked again a moment later. */
  function ratingsAfterEnd() {
    if (page.ratingsAfter || !Object.keys(page.people.ratings).length) return;
    page.ratingsAfter = true;
    setTimeout(
      () =>
        api(`/api/games/${gameId}/players`)
          .then((found) => {
            page.people.ratings = found.ratings || {};
            render();
          })
          .catch(() => {}),
      1500,
    );
  }

  async function presence() {
    if (page.fatal) return;
    if (page.online && document.visibilityState === "visible") {
      try {
        const now = await api(`/api/games/${gameId}/presence`);
        if (JSON.stringify(now) !== JSON.stringify(page.people.presence)) {
          page.people.presence = now;
          redraw();
        }
      } catch {
        /* shown again at the next poll */
      }
    }
    setTimeout(presence, 4000);
  }

  /** A board after `step` of the game's moves (the public view), for the steps of a reply. */
  const board = (/** @type {number} */ step) =>
    api(`/api/games/${gameId}/replay?step=${step}`).then((answer) => answer.board);

  return { moves, forState, people, ratingsAfterEnd, presence, board };
}
