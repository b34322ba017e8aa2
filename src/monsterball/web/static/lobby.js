// The lobby: a new game's form (game, rules, mode, bots, clock, options), the games being
// played and finished, the social column (web/static/social.js).
import { drawBoard } from "./board.js";
import { remember, remembered } from "./seats.js";
import { lobbySocial } from "./social.js";
import { api, copyButton, el } from "./util.js";

function gamesTable(rows, link, label, mine, titles) {
  if (!rows.length)
    return el("p", { class: "muted", "data-testid": `no-${label}` }, "No games yet.");
  return el(
    "div",
    { class: "table-scroll" },
    el(
      "table",
      { class: "games" },
      el(
        "tr",
        {},
        el("th", {}, "game"),
        el("th", {}, "rules"),
        el("th", {}, "mode"),
        el("th", {}, "moves"),
        el("th", {}, "result"),
        el("th", {}),
      ),
      rows.map((g) =>
        el(
          "tr",
          {},
          el("td", {}, titles[g.game] || g.game),
          el(
            "td",
            {},
            g.preset || "standard",
            g.seeded
              ? el("span", { class: "tag", title: "the creator chose the dice seed" }, " seeded")
              : null,
          ),
          el("td", {}, g.mode),
          el("td", {}, g.moves),
          el("td", {}, g.result),
          el(
            "td",
            {},
            el("a", { href: link(g), "data-testid": `${label}-${g.id}` }, label),
            (label === "watch" && mine[g.id] ? mine[g.id] : []).map((c) => [
              " · ",
              el(
                "a",
                { href: c.url, "data-testid": `resume-${g.id}-${c.name}` },
                `resume as ${c.name}`,
              ),
            ]),
          ),
        ),
      ),
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
    "Dice seed (practice only; online rooms draw a secret one)",
    seedInput,
  );
  // Time controls (docs/web.md, "Clocks"): for online and bot games.
  const CLOCKS = {
    none: null,
    "3+2": { kind: "realtime", minutes: 3, increment: 2 },
    "10+5": { kind: "realtime", minutes: 10, increment: 5 },
    "30+20": { kind: "realtime", minutes: 30, increment: 20 },
    "1d": { kind: "correspondence", days: 1 },
    "3d": { kind: "correspondence", days: 3 },
  };
  const clockSelect = el(
    "select",
    { name: "clock", "data-testid": "clock" },
    el("option", { value: "none" }, "No clock"),
    el("option", { value: "3+2" }, "3 min + 2 s"),
    el("option", { value: "10+5" }, "10 min + 5 s"),
    el("option", { value: "30+20" }, "30 min + 20 s"),
    el("option", { value: "1d" }, "1 day per move"),
    el("option", { value: "3d" }, "3 days per move"),
  );
  const clockRow = el("label", { "data-testid": "clock-fields" }, "Clock", clockSelect);

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
    about,
    el("label", {}, "Rules", presetSelect),
    presetDoc,
    el("label", {}, "Play", modeSelect),
    botRow,
    botsRow,
    clockRow,
    el("label", {}, "Coaches", coachesSelect),
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
    if (!clockRow.hidden && CLOCKS[clockSelect.value]) body.clock = CLOCKS[clockSelect.value];
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
