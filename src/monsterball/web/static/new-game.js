// The lobby's new-game form: game, rules, mode, bots, clock, coaches, options and dice seed,
// with a plain-words hint beside each choice that needs one; a new online room's seat links.
import { drawBoard } from "./board.js";
import { remember } from "./seats.js";
import { clockChoice } from "./time-controls.js";
import { api, copyButton, el } from "./util.js";

/**
 * @param {any} catalog the games, as /api/catalog lists them
 * @param {Record<string, any>} boards a small picture of each game's field
 */
export function newGameForm(catalog, boards) {
  const gameSelect = el(
    "select",
    { name: "game", "data-testid": "game" },
    catalog.games.map((g) => el("option", { value: g.id }, g.title)),
  );
  const presetSelect = el("select", { name: "preset", "data-testid": "preset" });
  const presetDoc = el("p", { class: "muted", "data-testid": "preset-doc" });
  const modeSelect = el(
    "select",
    { name: "mode", "data-testid": "mode" },
    el("option", { value: "hotseat" }, "Hot-seat (one screen, both sides)"),
    el("option", { value: "bot" }, "Against a bot"),
    el("option", { value: "bots" }, "Watch two bots play"),
    el("option", { value: "online" }, "Online room (a link per seat)"),
  );
  const levels = () => catalog.bot_levels.map((l) => el("option", { value: l }, l));
  const levelSelect = el(
    "select",
    { name: "level", "data-testid": "level", "aria-label": "bot level" },
    levels(),
  );
  const levelSelectA = el(
    "select",
    { name: "level-a", "data-testid": "level-a", "aria-label": "level of the bot playing A" },
    levels(),
  );
  const levelSelectB = el(
    "select",
    { name: "level-b", "data-testid": "level-b", "aria-label": "level of the bot playing B" },
    levels(),
  );
  const botSeat = el("select", {
    name: "botseat",
    "data-testid": "bot-seat",
    "aria-label": "seat the bot plays",
  });
  const coachesSelect = el("select", { name: "coaches", "data-testid": "coaches" });
  const seedInput = el("input", { name: "seed", type: "number", min: 0, placeholder: "random" });
  const optionsInput = el("input", {
    name: "options",
    "data-testid": "options",
    placeholder: "e.g. points_to_win=3; strategy_dice=false",
  });
  const message = el("p", { class: "error", role: "alert" });
  const links = el("div");
  const about = el("div", { class: "about", "data-testid": "summary" });
  const botRow = el("label", { "data-testid": "bot-fields" }, "Bot", levelSelect, botSeat);
  const botsRow = el(
    "label",
    { "data-testid": "bots-fields" },
    "Bots (A, B)",
    levelSelectA,
    levelSelectB,
  );
  const seedRow = el(
    "label",
    {},
    "Dice seed (optional)",
    seedInput,
    el(
      "span",
      { class: "muted", "data-testid": "seed-hint" },
      "Leave it empty for fair random dice. A number gives the same dice every time you start " +
        "with it: to practise a game again or show it to a friend. Online rooms always draw " +
        "a secret one.",
    ),
  );
  const coachesRow = el(
    "label",
    { "data-testid": "coaches-fields" },
    "Coaches",
    coachesSelect,
    el(
      "span",
      { class: "muted", "data-testid": "coaches-hint" },
      "How many people play: 2 is one coach a team. With 4, two coaches share each team and " +
        "take turns deciding, as the rulebook's four-coach game says.",
    ),
  );
  // The first thing a newcomer needs: where to learn the game chosen.
  const newHere = el("p", { class: "new-here", "data-testid": "new-here" });
  // Time controls (docs/web.md, "Clocks"): for online and bot games.
  const clock = clockChoice({ name: "clock", "data-testid": "clock" });
  const clockRow = el("label", { "data-testid": "clock-fields" }, "Clock", clock.select);

  function refresh() {
    const game = catalog.games.find((g) => g.id === gameSelect.value);
    presetSelect.replaceChildren(
      el("option", { value: "" }, "(standard rules)"),
      ...game.presets.map((p) => el("option", { value: p.name }, p.name)),
    );
    botSeat.replaceChildren(
      ...game.seats.map((s, i) =>
        el("option", { value: s, selected: i === game.seats.length - 1 }, `bot plays ${s}`),
      ),
    );
    coachesSelect.replaceChildren(
      ...game.coaches.map((c) => el("option", { value: c }, `${c} coaches`)),
    );
    coachesRow.hidden = game.coaches.length < 2; // nothing to choose: one coach a team
    newHere.replaceChildren(
      el("strong", {}, "New here? "),
      el(
        "a",
        { href: `/learn/${game.id}`, "data-testid": "new-here-lessons" },
        `Start with the ${game.title} lessons`,
      ),
      ": a few minutes each, played on the board. Or read ",
      el("a", { href: `/guide/${game.id}`, "data-testid": "new-here-guide" }, "how to play"),
      " first.",
    );
    about.replaceChildren(
      boards[game.id] ? el("div", { class: "thumb" }, drawBoard(boards[game.id])) : null,
      el(
        "div",
        {},
        el("p", {}, game.summary),
        el(
          "p",
          {},
          el(
            "a",
            { href: `/guide/${game.id}`, "data-testid": "how-to-play" },
            `How to play ${game.title}`,
          ),
          " · ",
          el("a", { href: `/learn/${game.id}`, "data-testid": "lessons" }, "Lessons"),
          " · ",
          el("a", { href: `/rules/${game.id}`, "data-testid": "rules-detail" }, "Rules in detail"),
        ),
        el(
          "details",
          {},
          el("summary", {}, "Rule presets"),
          el(
            "dl",
            { class: "presets" },
            game.presets.map((p) => [el("dt", {}, p.name), el("dd", {}, p.doc || "")]),
          ),
        ),
      ),
    );
    showPreset();
  }
  function showPreset() {
    const game = catalog.games.find((g) => g.id === gameSelect.value);
    const preset = game.presets.find((p) => p.name === presetSelect.value);
    presetDoc.textContent = preset ? preset.doc : "The rulebook's standard game.";
  }
  function showMode() {
    const mode = modeSelect.value;
    botRow.hidden = mode !== "bot";
    botsRow.hidden = mode !== "bots";
    seedRow.hidden = mode === "online";
    clockRow.hidden = mode === "hotseat" || mode === "bots";
  }
  gameSelect.onchange = refresh;
  presetSelect.onchange = showPreset;
  modeSelect.onchange = showMode;
  refresh();
  showMode();

  const form = el(
    "form",
    { class: "new-game", "data-testid": "new-game" },
    el("h2", {}, "New game"),
    el("label", {}, "Game", gameSelect),
    newHere,
    about,
    el("label", {}, "Rules", presetSelect),
    presetDoc,
    el("label", {}, "Play", modeSelect),
    botRow,
    botsRow,
    clockRow,
    coachesRow,
    el("label", {}, "Options (advanced: settings from the rules in detail)", optionsInput),
    seedRow,
    el("button", { class: "primary", type: "submit", "data-testid": "start" }, "Start"),
    message,
    links,
  );
  form.onsubmit = async (event) => {
    event.preventDefault();
    message.textContent = "";
    const chosen = modeSelect.value;
    const mode = chosen === "bots" ? "bot" : chosen;
    const bots =
      chosen === "bot"
        ? { [botSeat.value]: levelSelect.value }
        : chosen === "bots"
          ? { A: levelSelectA.value, B: levelSelectB.value }
          : {};
    const body = {
      game: gameSelect.value,
      preset: presetSelect.value || null,
      mode,
      coaches: Number(coachesSelect.value),
      bots,
    };
    if (seedInput.value !== "" && mode !== "online") body.seed = Number(seedInput.value);
    if (chosen === "bots") body.speed = "normal"; // watchable: the server paces the bots
    if (!clockRow.hidden && clock.chosen()) body.clock = clock.chosen();
    // The same key=value settings as `monsterball play --opt`, separated by semicolons.
    body.settings = optionsInput.value
      .split(";")
      .map((p) => p.trim())
      .filter(Boolean);
    try {
      const created = await api("/api/games", { method: "POST", body });
      const humans = created.chairs.filter((c) => c.kind === "human");
      remember(created.id, humans);
      if (!humans.length) location.href = created.watch;
      else if (mode === "online") {
        const [yours, ...others] = humans;
        const url = (c) => location.origin + c.url;
        links.replaceChildren(
          el(
            "div",
            { class: "links", "data-testid": "links" },
            el(
              "div",
              {},
              el("strong", {}, `Your seat (${yours.name}): `),
              el("a", { href: yours.url, "data-testid": `link-${yours.name}` }, "open your seat"),
              " ",
              copyButton(url(yours)),
            ),
            others.map((c) =>
              el(
                "div",
                {},
                el("strong", {}, `Send to your opponent (${c.name}): `),
                el("a", { href: c.url, "data-testid": `link-${c.name}` }, "link"),
                " ",
                el("code", {}, url(c)),
                " ",
                copyButton(url(c)),
              ),
            ),
            el(
              "div",
              {},
              "Spectators: ",
              el("code", {}, location.origin + created.watch),
              " ",
              copyButton(location.origin + created.watch),
            ),
            el(
              "p",
              { class: "muted" },
              "Each link is the key to its seat: keep yours, send the other.",
            ),
          ),
        );
      } else {
        location.href = humans[0].url;
      }
    } catch (error) {
      message.textContent = error.message;
    }
  };

  return form;
}
