// The game page's turn card: whose move and what is asked (or the step of a reply being
// shown), who is at the table, the guide, the action buttons and choices, the typed move,
// the controls (resign, takeback, abandon, flip, theme) and the settings.
import { guide } from "./game-state.js";
import { clickFor } from "./hints.js";
import * as view from "./game-view.js";
import { applyTheme } from "./page-controls.js";
import { el } from "./util.js";

/**
 * @param {any} page the view model (play.js)
 * @param {any} act its handlers
 * @param {{legal: any[], draft: HTMLElement | null, cellTargets: Set<string>}} shown
 */
export function turnCard(page, act, { legal, draft, cellTargets }) {
  const { send, resign, flipped, render, playerLabel, frame } = act;
  const { state, viewing, online, selected } = page;
  const mine = state.legal.length > 0;
  const finished = state.game.status === "finished";
  const acting = state.chairs.find((c) => c.name === state.to_act);
  // A bot to act, or a move sent in a game with a bot (the server answers once the bot has
  // made its reply, so the wait is the bot's thinking).
  const bot =
    acting && acting.kind === "bot"
      ? acting
      : page.pending !== null
        ? state.chairs.find((c) => c.kind === "bot")
        : null;
  const buttons = legal.filter(
    (l) =>
      !l.piece &&
      !l.cell &&
      !(draft && /^draft \S+$/.test(l.a) && !["draft best", "draft random"].includes(l.a)),
  );
  const pieceOnly = selected ? legal.filter((l) => l.piece === selected && !l.cell) : [];
  const seated =
    Boolean(state.you) && state.chairs.some((c) => c.name === state.you && c.kind === "human");
  return el(
    "div",
    { class: "card" },
    finished ? null : frame ? stepsLine(frame, act.skipSteps) : view.turnLine(state, mine, online),
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
      ? el("p", { class: "error", "data-testid": "move-error", role: "alert" }, page.errorText)
      : null,
    mine && !finished && !viewing && !frame && online
      ? el(
          "p",
          { class: "guide", "data-testid": "guide" },
          draft
            ? "Pick a type in the draft table (its cost, size, move and ability are listed), or let “draft best” choose."
            : guide(legal, selected, cellTargets, (kind, a) => clickFor(state.game.game, kind, a)),
        )
      : null,
    // What the game says the side to act must know about this position (a loose disc is
    // picked up by running onto it), from the game's board hook (issue 33).
    state.board.tip && !finished && !viewing && !frame
      ? el("p", { class: "guide tip", "data-testid": "tip" }, state.board.tip)
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
    mine && !finished && !frame ? typedForm(mine && online, send) : null,
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
      "monsterball-steps",
      "show a reply step by step",
      "steps-setting",
      (on) => {
        page.settings.steps = on;
      },
      page.settings.steps,
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
  );
}

/** While a reply's steps are shown: which step, what it was, and a way to skip to the end. */
function stepsLine(frame, skip) {
  const what = frame.entry
    ? `${frame.entry.by === "dice" ? "dice" : frame.entry.by}: ${frame.entry.action}`
    : "…";
  return el(
    "div",
    { class: "turn steps", "data-testid": "steps", "aria-live": "polite" },
    frame.kind === "score"
      ? `The scoring move — ${what}`
      : frame.kind === "wait"
        ? "What happened: the reply's steps come next…"
        : `What happened, step ${frame.index} of ${frame.count} — ${what}`,
    " ",
    el("button", { onclick: skip, "data-testid": "skip-steps" }, "Skip ▸"),
  );
}

/** A move typed in notation (e.g. A3-e7), for those who would rather type. */
function typedForm(enabled, send) {
  const typed = el("input", {
    placeholder: "or type a move, e.g. A3-e7",
    "data-testid": "typed",
    "aria-label": "type a move in notation",
    disabled: !enabled,
  });
  return el(
    "form",
    {
      onsubmit: (event) => {
        event.preventDefault();
        if (typed.value.trim()) send(typed.value.trim());
      },
    },
    typed,
  );
}
