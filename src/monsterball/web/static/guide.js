// The player's guide of a game (/guide/GAME): prose sections from the game's lesson data, each
// mechanic with diagrams the engine produced (GET /api/guide/GAME), drawn by the board code.
import { diagram, links, stylesheet } from "./learn-common.js";
import { api, el } from "./util.js";

// Items written "1. ...", "2. ..." are steps: a numbered list (not bullets and numbers).
function list(items) {
  const numbered = items.every((item) => /^\d+\.\s/.test(item));
  return el(
    numbered ? "ol" : "ul",
    {},
    items.map((item) => el("li", {}, numbered ? item.replace(/^\d+\.\s+/, "") : item)),
  );
}

function section(s) {
  return el(
    "section",
    {
      id: s.id,
      class: "guide-section",
      "data-testid": "guide-section",
      "data-kind": s.kind || "",
    },
    el("h2", {}, s.title),
    (s.text || []).map((p) => el("p", {}, p)),
    s.list ? list(s.list) : null,
    s.diagrams && s.diagrams.length
      ? el(
          "div",
          { class: "diagrams" },
          s.diagrams.map((d) =>
            el(
              "figure",
              { class: "diagram", "data-testid": "diagram" },
              diagram(d.board, d.highlight),
              el("figcaption", {}, d.caption),
            ),
          ),
        )
      : null,
  );
}

export async function guidePage(main, where, gameId) {
  stylesheet();
  const guide = await api(`/api/guide/${gameId}`);
  where.textContent = `${guide.title} · player's guide`;
  document.title = `How to play ${guide.title} — monsterball`;
  const toc = el(
    "ol",
    { class: "toc" },
    guide.sections.map((s) => el("li", {}, el("a", { href: `#${s.id}` }, s.title))),
  );
  main.replaceChildren(
    el(
      "article",
      { class: "guide-page", "data-testid": "guide" },
      el("h1", {}, `How to play ${guide.title}`),
      links(gameId, "guide"),
      el("p", { class: "lead" }, guide.summary),
      el(
        "p",
        {},
        "A ten-minute read. Then ",
        el("a", { href: `/learn/${gameId}` }, "try the lessons"),
        ": each one sets up a position and lets you make the move yourself.",
      ),
      el("div", { class: "card" }, el("h2", {}, "Contents"), toc),
      guide.sections.map(section),
      el(
        "p",
        {},
        el(
          "a",
          { class: "button primary", href: `/learn/${gameId}`, "data-testid": "start-lessons" },
          "Start the lessons",
        ),
      ),
    ),
  );
  if (location.hash) document.getElementById(location.hash.slice(1))?.scrollIntoView();
}
