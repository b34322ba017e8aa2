// The game page's layout, drawn afresh from the page's view model (play.js holds it and the
// handlers in \`act\`): the field with its banner and veil, the turn card, the side cards.
import { animate, drawBoard, flightIn, legend } from "./board.js";
import { clockCard } from "./clocks.js";
import { guide, lastMoveCells } from "./game-state.js";
import * as view from "./game-view.js";
import * as panels from "./panels.js";
import { applyTheme } from "./page-controls.js";
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
  const { onCell, send, viewStep, resign, flipped, endPanel, render, playerLabel } = act;
  const { state, viewing, online, selected } = page;
  if (!state || page.fatal) return;
  const legal = viewing || !online ? [] : state.legal;
  const mine = state.legal.length > 0;
  const finished = state.game.status === "finished";
  const held = !viewing && page.held && page.held.until > Date.now() ? page.held.board : null;
  const board = viewing ? viewing.data.board : held || state.board;
  const targets = new Set(
    selected ? legal.filter((l) => l.piece === selected && l.cell).map((l) => l.cell) : [],
  );
  const cellTargets = new Set(legal.filter((l) => !l.piece && l.cell).map((l) => l.cell));
  const cellOdds = {};
  if (page.settings.odds && selected && page.odds && page.odds.ply === state.game.ply && !viewing) {
    for (const t of page.odds.targets)
      if (t.receiver === selected) cellOdds[t.cell] = `${Math.round(100 * t.p)}%`;
  }
  const drawing = drawBoard(board, {
    onCell,
    selected,
    targets,
    cellTargets,
    odds: cellOdds,
    flipped: flipped(),
    actionable: new Set(legal.filter((l) => l.piece).map((l) => l.piece)),
    lastCells: viewing ? lastMoveCells(viewing.data.log) : held ? new Set() : page.outlined,
  });
  if (!viewing && !held && page.drawn)
    animate(drawing, page.drawn, board, flightIn(state.log.slice(-3)), flipped());
  page.drawn = viewing || held ? null : board;
  where.textContent = `${state.game.title} · ${state.game.preset || "standard"} · ${state.game.mode}`;
  document.title = `${mine && !finished ? "(Your move) " : ""}${state.game.title} — monsterball`;
  const acting = state.chairs.find((c) => c.name === state.to_act);
  // A bot to act, or a move sent in a game with a bot (the server answers once the bot has
  // made its reply, so the wait is the bot's thinking).
  const bot =
    acting && acting.kind === "bot"
      ? acting
      : page.pending !== null
        ? state.chairs.find((c) => c.kind === "bot")
        : null;
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
  const buttons = legal.filter(
    (l) =>
      !l.piece &&
      !l.cell &&
      !(draft && /^draft \S+$/.test(l.a) && !["draft best", "draft random"].includes(l.a)),
  );
  const pieceOnly = selected ? legal.filter((l) => l.piece === selected && !l.cell) : [];
  const typed = el("input", {
    placeholder: "or type a move, e.g. A3-e7",
    "data-testid": "typed",
    "aria-label": "type a move in notation",
    disabled: !mine || !online,
  });
  const typedForm = el(
    "form",
    {
      onsubmit: (event) => {
        event.preventDefault();
        if (typed.value.trim()) send(typed.value.trim());
      },
    },
    typed,
  );
  const toggleOdds = (on) => {
    page.settings.odds = on;
    localStorage.setItem("monsterball-odds", on ? "on" : "off");
    render();
  };
  const seated =
    Boolean(state.you) && state.chairs.some((c) => c.name === state.you && c.kind === "human");
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
          view.bannerFor(viewing || !page.banner ? null : page.banner.text),
          online
            ? null
            : el(
                "div",
                { class: "offline-veil", "data-testid": "offline", role: "status" },
                "reconnecting…",
              ),
        ),
        legend(board, yourTeam(state), state.game.hooks.ball),
      ),
      el(
        "div",
        { class: "side" },
        finished ? endPanel() : null,
        clockCard(state.clock, clockSide(state), finished),
        el(
          "div",
          { class: "card" },
          finished ? null : view.turnLine(state, mine, online),
          !finished && bot
            ? el(
                "div",
                { class: "thinking", "data-testid": "thinking" },
                bot === acting
                  ? `${bot.name} (bot) is thinking`
                  : `move sent, waiting for the reply (${bot.name}, a bot, may be thinking)`,
                el("span", { class: "dots" }, "…"),
              )
            : null,
          view.chairsLine(state, page.people, online),
          view.speedControl(state, act.setSpeed),
          page.notice
            ? el("p", { class: "notice", "data-testid": "notice", role: "status" }, page.notice)
            : null,
          page.errorText
            ? el(
                "p",
                { class: "error", "data-testid": "move-error", role: "alert" },
                page.errorText,
              )
            : null,
          mine && !finished && !viewing && online
            ? el(
                "p",
                { class: "guide", "data-testid": "guide" },
                draft
                  ? "Pick a type in the draft table (its cost, size, move and ability are listed), or let “draft best” choose."
                  : guide(legal, selected, cellTargets),
              )
            : null,
          view.confirmBar(
            page.confirming,
            () => send(page.confirming, true),
            () => {
              page.confirming = null;
              render();
            },
          ),
          view.choiceBar(state.game.game, page.choices, playerLabel, send, () => {
            page.choices = null;
            render();
          }),
          view.actionBar(state.game.game, [...buttons, ...pieceOnly], page.pending !== null, send),
          mine && !finished ? typedForm : null,
          el(
            "div",
            { class: "row controls" },
            seated && !finished
              ? view.resignButton(
                  page.resigning,
                  () => {
                    page.resigning = true;
                    render();
                  },
                  resign,
                  () => {
                    page.resigning = false;
                    render();
                  },
                )
              : null,
            page.takeback ? page.takeback.node(state) : null,
            page.draw ? page.draw.node(state) : null,
            page.abandon ? page.abandon.node(state) : null,
            el(
              "button",
              {
                "data-testid": "flip",
                "aria-pressed": flipped(),
                onclick: () => {
                  page.flipped = !flipped();
                  page.drawn = null;
                  render();
                },
              },
              "Flip board",
            ),
            el(
              "button",
              {
                "data-testid": "theme",
                onclick: () => {
                  applyTheme(document.documentElement.dataset.theme === "dark" ? "light" : "dark");
                },
              },
              "Dark / light",
            ),
          ),
          view.option(
            "monsterball-confirm",
            "confirm each move before it is sent",
            "confirm-setting",
            (on) => {
              page.settings.confirm = on;
            },
            page.settings.confirm,
          ),
          view.option(
            "monsterball-sound",
            "sound when it is my move",
            "sound-setting",
            (on) => {
              page.settings.sound = on;
            },
            page.settings.sound,
          ),
          state.game.dice_commitment
            ? el(
                "p",
                {
                  class: "fair",
                  title: "sha256 of the secret dice seed, revealed when the game ends",
                },
                "Dice commitment: ",
                el("code", { "data-testid": "dice-commitment" }, state.game.dice_commitment),
              )
            : null,
        ),
        el(
          "div",
          { class: "card panel" },
          el(
            "table",
            { class: "panel-table", "data-testid": "panel" },
            [["Move", String(viewing ? viewing.data.ply : state.game.ply)], ...board.panel].map(
              ([k, v]) => el("tr", {}, el("td", {}, k), el("td", {}, v)),
            ),
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
        panels.diceCard(state.log, page.seenDice),
        moveCard,
        el(
          "div",
          { class: "card" },
          textView(page, state, act.gameId, act.token),
          el("p", {}, el("a", { href: `/rules/${state.game.game}` }, "How to play")),
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
