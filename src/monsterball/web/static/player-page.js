// A player's page (docs/web.md, "Player pages"): ratings over time, record, recent games.
import { scrollTable, tableRow } from "./tables.js";
import { api, el, errorPage, svg } from "./util.js";

// One game's rating history as an inline SVG line: the start (1500) then the rating after each
// rated game, with the band of ± one rating deviation shaded; each point's figures in a tooltip.
export function ratingPlot(entry) {
  const W = 520,
    H = 170,
    L = 46,
    R = 10,
    T = 10,
    B = 22;
  const points = [{ rating: 1500, rd: 350, shown: "1500?", at: null }, ...entry.history];
  const lows = points.map((p) => p.rating - p.rd),
    highs = points.map((p) => p.rating + p.rd);
  const ratings = points.map((p) => p.rating);
  // The scale fits the ratings (with a margin), not the wide early deviations.
  const lo = Math.min(...ratings) - 40,
    hi = Math.max(...ratings) + 40;
  const x = (i) => L + (points.length === 1 ? 0 : (i * (W - L - R)) / (points.length - 1));
  const y = (r) => T + ((hi - Math.min(hi, Math.max(lo, r))) * (H - T - B)) / (hi - lo);
  const plot = svg("svg", {
    viewBox: `0 0 ${W} ${H}`,
    width: W,
    height: H,
    class: "rating-plot",
    role: "img",
    "data-testid": `rating-plot-${entry.game}`,
    "aria-label": `${entry.title} rating after each rated game`,
  });
  const band = points
    .map((p, i) => `${x(i)},${y(highs[i])}`)
    .concat(points.map((p, i) => `${x(i)},${y(lows[i])}`).reverse());
  plot.append(svg("polygon", { points: band.join(" "), class: "rating-band" }));
  for (const r of [lo + 40, hi - 40].filter((v, i, a) => a.indexOf(v) === i)) {
    plot.append(
      svg("line", { x1: L, x2: W - R, y1: y(r), y2: y(r), class: "rating-grid" }),
      svg(
        "text",
        { x: L - 4, y: y(r) + 4, "text-anchor": "end", class: "rating-axis" },
        String(Math.round(r)),
      ),
    );
  }
  plot.append(
    svg("polyline", {
      points: points.map((p, i) => `${x(i)},${y(p.rating)}`).join(" "),
      class: "rating-line",
      "data-testid": "rating-line",
    }),
  );
  points.forEach((p, i) => {
    const dot = svg("circle", {
      cx: x(i),
      cy: y(p.rating),
      r: 3.5,
      class: "rating-dot",
      "data-testid": "rating-point",
    });
    dot.append(
      svg(
        "title",
        {},
        i === 0 ? "start: 1500?" : `after game ${i}: ${p.shown} (± ${Math.round(p.rd)})`,
      ),
    );
    plot.append(dot);
  });
  plot.append(
    svg("text", { x: L, y: H - 6, class: "rating-axis" }, "start"),
    svg(
      "text",
      { x: W - R, y: H - 6, "text-anchor": "end", class: "rating-axis" },
      `${entry.history.length} rated game${entry.history.length === 1 ? "" : "s"}`,
    ),
  );
  return plot;
}

function ratingsCard(ratings) {
  return el(
    "section",
    { class: "card rating-history", "data-testid": "rating-history" },
    el("h2", {}, "Ratings"),
    ratings.length
      ? ratings.map((r) =>
          el(
            "div",
            { class: "rating-game", "data-testid": `rating-${r.game}` },
            el(
              "h3",
              {},
              r.title,
              " ",
              el(
                "a",
                { href: `/ratings/${r.game}`, title: "leaderboard" },
                el("span", { "data-testid": `rating-now-${r.game}` }, r.shown),
              ),
            ),
            el(
              "p",
              { class: "muted" },
              `Glicko-2 ${r.rating} ± ${r.rd}${r.provisional ? " (provisional: ? until the deviation falls below 150)" : ""}`,
            ),
            ratingPlot(r),
          ),
        )
      : el("p", { class: "muted", "data-testid": "no-ratings" }, "No rated games yet."),
  );
}

function ratingChange(g) {
  if (g.rating_change === null || g.rating_change === undefined)
    return g.rated ? el("span", { class: "tag" }, " rated") : null;
  const up = g.rating_change >= 0;
  return el(
    "span",
    { class: `rating-change ${up ? "up" : "down"}`, "data-testid": `rating-change-${g.id}` },
    ` ${up ? "+" : "−"}${Math.abs(g.rating_change).toFixed(1)} → ${g.rating_after}`,
  );
}

// /players/NAME: ratings with their history plotted, recent games with results (and rating
// changes), replays and records.
export async function playerPage(main, where, name) {
  where.textContent = `player ${name}`;
  let data;
  try {
    data = await api(`/api/players/${encodeURIComponent(name)}`);
  } catch (error) {
    errorPage(main, "No such player", error.message);
    return;
  }
  document.title = `monsterball — ${data.name}`;
  main.replaceChildren(
    el(
      "div",
      { class: "player-page", "data-testid": "player-page" },
      el(
        "h2",
        { "data-testid": "player-name" },
        data.name,
        data.locked ? el("span", { class: "tag" }, " (locked)") : null,
      ),
      ratingsCard(data.ratings),
      el(
        "section",
        { class: "card" },
        el("h2", {}, "Recent games"),
        data.games.length
          ? scrollTable(
              { "data-testid": "player-games" },
              ["game", "seat", "against", "moves", "result", ""],
              data.games.map((g) =>
                tableRow({ "data-testid": `player-game-${g.id}` }, [
                  // The game's name opens it: on a phone the table scrolls, and the last
                  // column (its links) starts out of view.
                  el("a", { href: g.url, "data-testid": `open-${g.id}` }, g.title),
                  g.seat,
                  g.opponents.join(", "),
                  g.moves,
                  [g.status === "playing" ? "being played" : g.result, ratingChange(g)],
                  [
                    el("a", { href: g.url }, g.status === "playing" ? "watch" : "replay"),
                    g.record
                      ? [
                          " · ",
                          el(
                            "a",
                            { href: g.record, download: "", "data-testid": `record-${g.id}` },
                            "record",
                          ),
                        ]
                      : null,
                  ],
                ]),
              ),
            )
          : el("p", { class: "muted", "data-testid": "no-player-games" }, "No games yet."),
      ),
    ),
  );
}
