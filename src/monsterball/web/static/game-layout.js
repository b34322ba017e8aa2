// The game page's layout, drawn afresh from the page's view model (play.js holds it and the
// handlers in \`act\`): the field with its banner and veil, the turn card, the side cards.
import { animate, drawBoard, flightIn, legend } from "./board.js";
import { clockCard } from "./clocks.js";
import { lastMoveCells, panelInWords } from "./game-state.js";
import { bannerFor } from "./game-view.js";
import { pieceKinds } from "./monsters.js";
import * as panels from "./panels.js";
import { turnCard } from "./turn-card.js";
import { el } from "./util.js";

export function yourTeam(state) {
  const chair = state.chairs.find((c) => c.name === state.you);
  return chair && state.game.mode !== "hotseat"
    ? Object.keys(state.board.teams || { A: 0, B: 1 })[chair.seat]
    : null;
}

export function yourSeat(state) {
  const chair = state.chairs.find((c) => c.name === state.you);
  return chair ? chair.seat : null;
}

export function renderGame(page, main, where, act) {
  const { onCell, send, viewStep, flipped, render, frame } = act;
  const { state, viewing, online, selected } = page;
  if (!state || page.fatal) return 0;
  // A reply's step on screen (steps.js): its board, nothing to click until the live state.
  const legal = viewing || !online || frame ? [] : state.legal;
  const board = viewing ? viewing.data.board : frame ? frame.board : state.board;
  const shownStep = viewing ? null : frame ? frame.step : state.game.ply;
  const targets = new Set(
    selected ? legal.filter((l) => l.piece === selected && l.cell).map((l) => l.cell) : [],
  );
  const cellTargets = new Set(legal.filter((l) => !l.piece && l.cell).map((l) => l.cell));
  const cellOdds = {};
  if (page.settings.odds && selected && page.odds && page.odds.ply === state.game.ply && !viewing) {
    for (const t of page.odds.targets)
      if (t.receiver === selected) cellOdds[t.cell] = `${Math.round(100 * t.p)}%`;
  }
  const kinds = state.game.hooks.roster ? pieceKinds(page.roster) : null;
  const drawing = drawBoard(board, {
    kinds,
    onCell,
    selected,
    targets,
    cellTargets,
    odds: cellOdds,
    flipped: flipped(),
    actionable: new Set(legal.filter((l) => l.piece).map((l) => l.piece)),
    lastCells: viewing
      ? lastMoveCells(viewing.data.log)
      : frame
        ? frame.outline || new Set()
        : page.outlined,
  });
  let moving = 0;
  if (!viewing && page.drawn) {
    // What flew since the board drawn last: a step's own move, or the rest of an update.
    const flown = frame
      ? frame.entry
        ? [frame.entry]
        : []
      : state.log.filter((e) => e.ply > page.drawnStep);
    moving = animate(drawing, page.drawn, board, flightIn(flown), flipped());
  }
  // From a scoring position nothing moves: the next point's line-up is drawn as it is.
  page.drawn = viewing || (frame && frame.kind === "score") ? null : board;
  if (shownStep !== null) page.drawnStep = shownStep;
  where.textContent = `${state.game.title} · ${state.game.preset || "standard"} · ${state.game.mode}`;
  const mine = state.legal.length > 0;
  const finished = state.game.status === "finished";
  document.title = `${mine && !finished ? "(Your move) " : ""}${state.game.title} — monsterball`;
  const draft = panels.draftCard(
    page.roster,
    legal,
    page.draftSort,
    (sort) => {
      page.draftSort = sort;
      render();
    },
    send,
    page.pending,
  );
  const toggleOdds = (on) => {
    page.settings.odds = on;
    localStorage.setItem("monsterball-odds", on ? "on" : "off");
    render();
  };
  const moveCard = el(
    "div",
    { class: "card" },
    el("h2", {}, `Moves (${page.moves.length})`),
    panels.moveList(page.moves, viewing ? viewing.step : null, viewStep, state.game.game),
  );
  // A redraw keeps the keyboard's place on the field (the new drawing takes the focus back).
  const focused =
    document.activeElement && document.activeElement.matches("svg.board")
      ? document.activeElement.getAttribute("aria-activedescendant")
      : null;
  main.replaceChildren(
    el(
      "div",
      {
        class: `play${online ? "" : " offline"}`,
        "data-ply": state.game.ply,
        "data-pending": page.pending !== null,
        "data-selected": selected || "",
        "data-online": online,
        // The step the field shows (a reply's step while it plays, else the live one).
        "data-showing": frame ? frame.step : "live",
        "data-frame": frame ? frame.kind : "",
      },
      el(
        "div",
        { class: "board-col" },
        viewing
          ? el(
              "div",
              { class: "viewing", "data-testid": "viewing" },
              `Showing the position after move ${viewing.step} of ${page.moves.length}. `,
              el(
                "button",
                {
                  onclick: () => {
                    page.viewing = null;
                    render();
                  },
                  "data-testid": "live",
                },
                "Back to the game",
              ),
            )
          : null,
        draft,
        el(
          "div",
          { class: "board-wrap", "aria-disabled": !online || Boolean(viewing) },
          drawing,
          bannerFor(viewing || !page.banner ? null : page.banner.text),
          online
            ? null
            : el(
                "div",
                { class: "offline-veil", "data-testid": "offline", role: "status" },
                "reconnecting…",
              ),
        ),
        legend(board, yourTeam(state), state.game.hooks.ball, kinds),
      ),
      el(
        "div",
        { class: "side" },
        finished ? act.endPanel() : null,
        clockCard(state.clock, clockSide(state), finished),
        turnCard(page, act, { legal, draft, cellTargets }),
        el(
          "div",
          { class: "card panel" },
          el(
            "table",
            { class: "panel-table", "data-testid": "panel" },
            [
              ["Move", String(viewing ? viewing.data.ply : frame ? frame.step : state.game.ply)],
              ...panelInWords(board, yourTeam(state)),
            ].flatMap(panels.panelRows),
          ),
        ),
        panels.oddsCard(page.odds, state.game.ply, legal, selected, page.settings.odds, toggleOdds),
        panels.outcomesCard(
          page.outcomes,
          state.game.ply,
          legal,
          selected,
          page.settings.odds,
          toggleOdds,
        ),
        panels.diceCard(
          frame ? state.log.filter((e) => e.ply <= frame.step) : state.log,
          page.seenDice,
        ),
        moveCard,
        el(
          "div",
          { class: "card" },
          textView(page, state, act.gameId, act.token),
          el(
            "p",
            { class: "learn-more" },
            el(
              "a",
              { href: `/guide/${state.game.game}`, "data-testid": "guide-link" },
              "How to play",
            ),
            " · ",
            el("a", { href: `/learn/${state.game.game}` }, "Lessons"),
            " · ",
            el("a", { href: `/rules/${state.game.game}` }, "Rules in detail"),
          ),
        ),
      ),
    ),
  );
  if (focused) {
    drawing.dataset.focusCell = focused;
    drawing.focus({ preventScroll: true });
  }
  const list = moveCard.querySelector(".moves");
  const current = list && list.querySelector("li.current");
  // Stepping through the list keeps the chosen move in view (not the list's top or end).
  if (current) current.scrollIntoView({ block: "nearest" });
  else if (list) list.scrollTop = list.scrollHeight;
  return moving;
}

function clockSide(state) {
  const chair = state.chairs.find((c) => c.name === state.you);
  return chair && state.clock ? state.clock.sides[chair.seat].side : null;
}

function textView(page, state, gameId, token) {
  const text = el("div", { class: "textview", "data-testid": "text" }, state.text || "");
  const details = el(
    "details",
    { open: page.textOpen || state.text !== null },
    el("summary", {}, "Text view"),
    text,
  );
  const loadText = async () => {
    if (state.text !== null) return;
    const response = await fetch(`/api/games/${gameId}/text`, {
      headers: token ? { "seat-token": token } : {},
    });
    text.textContent = await response.text();
  };
  details.addEventListener("toggle", () => {
    page.textOpen = details.open && state.text === null;
    if (details.open) loadText();
  });
  if (details.open) loadText();
  return details;
}
