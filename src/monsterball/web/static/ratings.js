// The leaderboard of a game: Glicko-2 ratings ("?": provisional, RD above the threshold).
import { api, el } from "./util.js";

export async function ratingsPage(main, where, game) {
  const [catalog, board] = await Promise.all([
    api("/api/catalog"),
    api(`/api/ratings/${encodeURIComponent(game)}`),
  ]);
  where.textContent = `${board.title} · leaderboard`;
  document.title = `${board.title} leaderboard — monsterball`;
  const tabs = el(
    "p",
    { class: "tabs" },
    catalog.games.map((g) => [
      g.id === board.game
        ? el("strong", {}, g.title)
        : el("a", { href: `/ratings/${g.id}` }, g.title),
      " ",
    ]),
  );
  const rows = board.players.map((p) =>
    el(
      "tr",
      { "data-testid": `rating-${p.player}` },
      el("td", { class: "num" }, String(p.rank)),
      el(
        "td",
        {},
        p.account ? el("a", { href: `/players/${encodeURIComponent(p.name)}` }, p.name) : p.name,
      ),
      el("td", { class: "num", title: `${p.rating} ± ${Math.round(2 * p.rd)} (95%)` }, p.shown),
      el("td", { class: "num" }, String(Math.round(p.rd))),
      el("td", { class: "num" }, String(p.games)),
    ),
  );
  main.replaceChildren(
    el(
      "div",
      { class: "card leaderboard" },
      el("h2", {}, `${board.title}: leaderboard`),
      tabs,
      board.players.length
        ? el(
            "div",
            { class: "table-scroll" },
            el(
              "table",
              { class: "games", "data-testid": "leaderboard" },
              el(
                "tr",
                {},
                el("th", { class: "num" }, "#"),
                el("th", {}, "player"),
                el("th", { class: "num" }, "rating"),
                el("th", { class: "num" }, "RD"),
                el("th", { class: "num" }, "games"),
              ),
              rows,
            ),
          )
        : el("p", { class: "muted", "data-testid": "no-ratings" }, "No rated games yet."),
      el(
        "p",
        { class: "muted" },
        `Glicko-2 ratings, one per game. A “?” marks a provisional rating (deviation above ${board.provisional_rd}): a few more games settle it. Bots are rated as bot:easy, bot:medium and bot:hard.`,
      ),
    ),
  );
}
