// The lobby: the new-game form (web/static/new-game.js), the games being played and
// finished, the social column (web/static/social.js).
import { newGameForm } from "./new-game.js";
import { remembered } from "./seats.js";
import { lobbySocial } from "./social.js";
import { scrollTable, tableRow } from "./tables.js";
import { api, el } from "./util.js";

function gamesTable(rows, link, label, mine, titles) {
  if (!rows.length)
    return el("p", { class: "muted", "data-testid": `no-${label}` }, "No games yet.");
  return scrollTable(
    {},
    ["game", "rules", "mode", "moves", "result", ""],
    rows.map((g) =>
      tableRow({}, [
        titles[g.game] || g.game,
        [
          g.preset || "standard",
          g.seeded
            ? el("span", { class: "tag", title: "the creator chose the dice seed" }, " seeded")
            : null,
        ],
        g.mode,
        g.moves,
        g.result,
        [
          el("a", { href: link(g), "data-testid": `${label}-${g.id}` }, label),
          (label === "watch" && mine[g.id] ? mine[g.id] : []).map((c) => [
            " · ",
            el(
              "a",
              { href: c.url, "data-testid": `resume-${g.id}-${c.name}` },
              `resume as ${c.name}`,
            ),
          ]),
        ],
      ]),
    ),
  );
}

export async function lobby(main, where, connection, me) {
  where.textContent = "new game";
  connection.textContent = "";
  const [catalog, boards] = await Promise.all([
    api("/api/catalog"),
    api("/api/ui/boards").catch(() => ({})),
  ]);
  const titles = Object.fromEntries(catalog.games.map((g) => [g.id, g.title]));
  const form = newGameForm(catalog, boards);
  const mine = remembered();
  const [playing, finished, social] = await Promise.all([
    api("/api/games?status=playing&limit=20"),
    api("/api/games?status=finished&limit=30"),
    lobbySocial(me, catalog, titles),
  ]);
  main.replaceChildren(
    el(
      "div",
      { class: "lobby" },
      form,
      el(
        "div",
        { class: "tables" },
        social,
        el("h2", {}, "Being played"),
        gamesTable(playing.games, (g) => `/play/${g.id}`, "watch", mine, titles),
        el("h2", {}, "Finished — replays"),
        gamesTable(finished.games, (g) => `/replay/${g.id}`, "replay", mine, titles),
        el(
          "p",
          { "data-testid": "leaderboards" },
          "Leaderboards: ",
          catalog.games.map((g, i) => [
            i ? " · " : "",
            el("a", { href: `/ratings/${g.id}` }, g.title),
          ]),
        ),
      ),
    ),
  );
}
