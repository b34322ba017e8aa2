// The game page's own cards, drawn from the page's view model (play.js holds it): the turn
// line, who is at the table, the action bar with its "which one?" choices, the settings row
// (flip, theme, confirm moves, sound), resign, and the end panel.
import { resultForYou } from "./game-state.js";
import { hintFor } from "./hints.js";
import { el } from "./util.js";

/** The turn line: whose move, and what is asked; offline, that nothing can be done now. */
export function turnLine(state, mine, online) {
  if (!online) {
    return el(
      "div",
      { class: "turn offline", "data-testid": "turn", "aria-live": "polite" },
      "Not connected: reconnecting… (moves wait until the page is back)",
    );
  }
  return el(
    "div",
    { class: `turn${mine ? " mine" : ""}`, "data-testid": "turn", "aria-live": "polite" },
    mine
      ? `Your move (${state.to_act}): ${state.prompt}`
      : `${state.to_act || "…"} to act: ${state.prompt}`,
  );
}

/** Who sits where: bots, accounts with their ratings, "you", and who is connected. */
export function chairsLine(state, people, online) {
  const { names, ratings, presence } = people;
  const away = (c) =>
    !online || !presence
      ? null
      : el(
          "span",
          {
            class: `presence ${presence.chairs[c.name] ? "on" : "off"}`,
            "data-testid": `presence-${c.name}`,
            title: presence.chairs[c.name] ? "connected" : "not connected",
          },
          presence.chairs[c.name] ? " ● here" : " ○ away",
        );
  return el(
    "div",
    { class: "chairs" },
    state.chairs.map((c) =>
      el(
        "span",
        {
          class: [c.name === state.to_act ? "acting" : "", c.name === state.you ? "me" : ""].join(
            " ",
          ),
        },
        `${c.name}${c.kind === "bot" ? ` (bot: ${c.bot})` : ""}`,
        names[c.name]
          ? [
              " · ",
              el(
                "a",
                {
                  href: `/players/${encodeURIComponent(names[c.name])}`,
                  "data-testid": `player-${c.name}`,
                },
                names[c.name],
              ),
              ratings[c.name]
                ? el(
                    "span",
                    {
                      class: "muted",
                      "data-testid": `rating-${c.name}`,
                      title: "rating (? while provisional)",
                    },
                    ` (${ratings[c.name]})`,
                  )
                : null,
            ]
          : null,
        c.name === state.you && state.game.mode !== "hotseat" ? " · you" : "",
        c.kind === "human" && state.game.mode !== "hotseat" ? away(c) : null,
      ),
    ),
    online && presence && presence.spectators
      ? el("span", { class: "muted" }, ` ${presence.spectators} watching`)
      : null,
  );
}

/** The buttons of the actions no click on the board reaches, with their one-line hints. */
export function actionBar(game, actions, pending, send) {
  const bar = el(
    "div",
    { class: "actions", "data-testid": "actions" },
    actions.map((l) =>
      el(
        "button",
        {
          onclick: () => send(l.a),
          disabled: pending,
          "data-action": l.a,
          title: hintFor(game, l.a) || "",
        },
        l.a,
      ),
    ),
  );
  const hinted = actions.filter((l) => hintFor(game, l.a)).slice(0, 8);
  const hints = hinted.length
    ? el(
        "ul",
        { class: "hints", "data-testid": "hints" },
        hinted.map((l) => el("li", {}, el("strong", {}, l.a), `: ${hintFor(game, l.a)}`)),
      )
    : null;
  return [bar, hints];
}

/** "Which one?": the actions one click could mean, or the pieces of a stack to pick from. */
export function choiceBar(game, choices, label, send, cancel) {
  if (!choices) return null;
  if (choices.kind === "stack") {
    return el(
      "div",
      {
        class: "actions choice",
        "data-testid": "stack-picker",
        role: "group",
        "aria-label": "which piece?",
      },
      el("span", {}, `Which one at ${choices.cell}?`),
      choices.pieces.map((p) =>
        el("button", { onclick: () => choices.pick(p.id), "data-piece": p.id }, p.title),
      ),
      el("button", { onclick: cancel }, "cancel"),
    );
  }
  return el(
    "div",
    { class: "actions choice", "data-testid": "choices" },
    el("span", {}, "Which one?"),
    choices.options.map((l) =>
      el(
        "button",
        { onclick: () => send(l.a), "data-action": l.a, title: hintFor(game, l.a) || "" },
        label(l.a),
      ),
    ),
    el("button", { onclick: cancel }, "cancel"),
  );
}

/** A move waiting for the player's "yes" (the confirm-moves setting). */
export function confirmBar(action, yes, no) {
  if (!action) return null;
  return el(
    "div",
    { class: "actions confirm", "data-testid": "confirm-move", role: "group" },
    el("span", {}, `Play “${action}”?`),
    el("button", { class: "primary", onclick: yes, "data-testid": "confirm-yes" }, "Play it"),
    el("button", { onclick: no, "data-testid": "confirm-no" }, "Cancel"),
  );
}

/** A tick box kept in localStorage under `key`. */
export function option(key, label, testid, onChange, fallback = false) {
  const stored = localStorage.getItem(key);
  const box = el("input", {
    type: "checkbox",
    checked: stored === null ? fallback : stored === "on",
    "data-testid": testid,
  });
  box.onchange = () => {
    localStorage.setItem(key, box.checked ? "on" : "off");
    onChange(box.checked);
  };
  return el("label", { class: "option" }, box, ` ${label}`);
}

/** Resign, asked twice: the first click asks "really?", the second gives the game up. */
export function resignButton(asking, ask, confirm, cancel) {
  if (!asking)
    return el("button", { class: "danger", "data-testid": "resign", onclick: ask }, "Resign");
  return el(
    "span",
    { class: "confirm", role: "group", "data-testid": "resign-confirm" },
    "Give the game up? ",
    el("button", { class: "danger", "data-testid": "resign-yes", onclick: confirm }, "Yes, resign"),
    " ",
    el("button", { "data-testid": "resign-no", onclick: cancel }, "Keep playing"),
  );
}

/** The end of the game: the result in the player's words, the score, what to do next. */
export function endPanel(state, yourTeam, gameId, rematchNode) {
  const score = state.board.panel.find(([k]) => k === "Score");
  return el(
    "div",
    { class: "card end-panel", "data-testid": "end-panel", role: "status" },
    el("h2", {}, "Game over"),
    el(
      "p",
      { class: "result", "data-testid": "result" },
      resultForYou(state.game.result, yourTeam),
    ),
    score && !state.game.result.includes(score[1]) ? el("p", { class: "score" }, score[1]) : null,
    rematchNode,
    el(
      "div",
      { class: "actions" },
      el("a", { class: "button", href: "/", "data-testid": "new-game" }, "New game"),
      el("a", { class: "button", href: `/replay/${gameId}`, "data-testid": "to-replay" }, "Replay"),
      el(
        "a",
        { class: "button", href: `/api/games/${gameId}/record`, "data-testid": "download" },
        "Download",
      ),
    ),
    el(
      "p",
      { class: "learn-more" },
      "Learn more: ",
      el("a", { href: `/learn/${state.game.game}`, "data-testid": "end-lessons" }, "the lessons"),
      " · ",
      el(
        "a",
        { href: `/guide/${state.game.game}`, "data-testid": "end-guide" },
        "the player's guide",
      ),
    ),
    state.game.dice_seed
      ? el(
          "p",
          { class: "fair" },
          "Dice seed revealed: ",
          el("code", { "data-testid": "dice-seed" }, String(state.game.dice_seed)),
        )
      : null,
  );
}

/** A short banner for what just happened (Turnover, Point, Touchdown, Safety). */
export function bannerFor(text) {
  return text
    ? el("div", { class: "banner", "data-testid": "banner", role: "status" }, text)
    : null;
}

/** A bots-only game's pace, for everyone watching (the server makes the moves that far apart). */
export function speedControl(state, setSpeed) {
  if (state.game.status === "finished" || state.chairs.some((c) => c.kind === "human")) return null;
  const speeds = [
    ["slow", "slow (2 s a move)"],
    ["normal", "normal (0.7 s)"],
    ["fast", "fast (0.2 s)"],
    ["max", "as fast as the bots go"],
  ];
  const select = el(
    "select",
    { "data-testid": "bot-speed", "aria-label": "speed of the bots' game" },
    speeds.map(([value, label]) =>
      el("option", { value, selected: state.game.speed === value }, label),
    ),
  );
  select.onchange = () => setSpeed(select.value);
  return el("label", { class: "option" }, "Speed ", select);
}
