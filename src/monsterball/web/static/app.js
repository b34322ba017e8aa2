// The monsterball browser client: one module, no build step. The server sends each seat's
// state as JSON (board drawing, legal actions with click hints, log); this file draws it as
// SVG and turns clicks into actions. Three pages: the lobby, a game, and a replay.

const main = document.getElementById("main");
const where = document.getElementById("where");
const connection = document.getElementById("connection");
const SVG = "http://www.w3.org/2000/svg";

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "onclick" || key === "onchange" || key === "oninput" || key === "onsubmit") {
      node[key] = value;
    } else if (value !== null && value !== undefined && value !== false) {
      node.setAttribute(key, value === true ? "" : value);
    }
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined) {
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
  }
  return node;
}

function svg(tag, attrs = {}) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  return node;
}

async function api(path, options = {}) {
  const response = await fetch(path, {
    headers: { "content-type": "application/json" },
    ...options,
    body: options.body ? JSON.stringify(options.body) : undefined,
  });
  const data = await response.json();
  if (!response.ok) throw new Error(data.message || response.statusText);
  return data;
}

// -- lobby -------------------------------------------------------------------------------

async function lobby() {
  where.textContent = "new game";
  const catalog = await api("/api/catalog");
  const gameSelect = el("select", { name: "game", "data-testid": "game" },
    catalog.games.map((g) => el("option", { value: g.id }, g.title)));
  const presetSelect = el("select", { name: "preset", "data-testid": "preset" });
  const modeSelect = el("select", { name: "mode", "data-testid": "mode" },
    el("option", { value: "hotseat" }, "Hot-seat (one screen)"),
    el("option", { value: "bot" }, "Against a bot"),
    el("option", { value: "online" }, "Online room (a link per seat)"));
  const levelSelect = el("select", { name: "level", "data-testid": "level" },
    catalog.bot_levels.map((l) => el("option", { value: l }, l)));
  const botSeat = el("select", { name: "botseat", "data-testid": "bot-seat" });
  const coachesSelect = el("select", { name: "coaches", "data-testid": "coaches" });
  const seedInput = el("input", { name: "seed", type: "number", min: 0, placeholder: "random" });
  const optionsInput = el("input", { name: "options", "data-testid": "options",
    placeholder: "e.g. points_to_win=3; strategy_dice=false" });
  const message = el("p", { class: "error" });
  const links = el("div");

  function refresh() {
    const game = catalog.games.find((g) => g.id === gameSelect.value);
    presetSelect.replaceChildren(el("option", { value: "" }, "(standard rules)"),
      ...game.presets.map((p) => el("option", { value: p.name, title: p.doc }, p.name)));
    botSeat.replaceChildren(...game.seats.map((s, i) =>
      el("option", { value: s, selected: i === game.seats.length - 1 }, `bot plays ${s}`)));
    coachesSelect.replaceChildren(...game.coaches.map((c) => el("option", { value: c }, `${c} coaches`)));
  }
  gameSelect.onchange = refresh;
  refresh();

  const form = el("form", { class: "new-game", "data-testid": "new-game" },
    el("h2", {}, "New game"),
    el("label", {}, "Game", gameSelect),
    el("label", {}, "Rules", presetSelect),
    el("label", {}, "Play", modeSelect),
    el("label", {}, "Bot", levelSelect, botSeat),
    el("label", {}, "Coaches", coachesSelect),
    el("label", {}, "Options (see `monsterball rules GAME`)", optionsInput),
    el("label", {}, "Seed (optional)", seedInput),
    el("button", { class: "primary", type: "submit", "data-testid": "start" }, "Start"),
    message, links);
  form.onsubmit = async (event) => {
    event.preventDefault();
    message.textContent = "";
    const mode = modeSelect.value;
    const body = {
      game: gameSelect.value,
      preset: presetSelect.value || null,
      mode,
      coaches: Number(coachesSelect.value),
      bots: mode === "bot" ? { [botSeat.value]: levelSelect.value } : {},
    };
    if (seedInput.value !== "") body.seed = Number(seedInput.value);
    // The same key=value settings as `monsterball play --opt`, separated by semicolons.
    body.settings = optionsInput.value.split(";").map((p) => p.trim()).filter(Boolean);
    try {
      const created = await api("/api/games", { method: "POST", body });
      const humans = created.chairs.filter((c) => c.kind === "human");
      remember(created.id, humans);
      if (mode === "online") {
        links.replaceChildren(el("div", { class: "links", "data-testid": "links" },
          el("strong", {}, "Share one link per seat:"),
          humans.map((c) => el("div", {}, `${c.name}: `,
            el("a", { href: c.url, "data-testid": `link-${c.name}` }, "open"), " ",
            el("code", {}, location.origin + c.url))),
          el("div", {}, "Spectators: ", el("code", {}, location.origin + created.watch))));
      } else {
        location.href = humans[0].url;
      }
    } catch (error) {
      message.textContent = error.message;
    }
  };

  const mine = remembered();
  const playing = await api("/api/games?status=playing&limit=20");
  const finished = await api("/api/games?status=finished&limit=30");
  const table = (rows, link, label) => el("table", { class: "games" },
    el("tr", {}, el("th", {}, "game"), el("th", {}, "rules"), el("th", {}, "mode"),
      el("th", {}, "moves"), el("th", {}, "result"), el("th", {})),
    rows.map((g) => el("tr", {}, el("td", {}, g.game), el("td", {}, g.preset || "standard"),
      el("td", {}, g.mode), el("td", {}, g.moves), el("td", {}, g.result),
      el("td", {}, el("a", { href: link(g), "data-testid": `${label}-${g.id}` }, label),
        ...(label === "watch" && mine[g.id] ? mine[g.id].map((c) =>
          [" · ", el("a", { href: c.url, "data-testid": `resume-${g.id}-${c.name}` }, `resume as ${c.name}`)]).flat() : [])))));
  main.replaceChildren(el("div", { class: "lobby" }, form, el("div", {},
    el("h2", {}, "Being played"), table(playing.games, (g) => `/play/${g.id}`, "watch"),
    el("h2", {}, "Finished — replays"), table(finished.games, (g) => `/replay/${g.id}`, "replay"))));
}

// Seat links of the games started in this browser, so the lobby can offer to resume them
// (a link is the only key to a seat).
function remembered() {
  try { return JSON.parse(localStorage.getItem("monsterball-seats") || "{}"); } catch { return {}; }
}

function remember(gameId, chairs) {
  const seats = remembered();
  seats[gameId] = chairs.map((c) => ({ name: c.name, url: c.url }));
  const ids = Object.keys(seats);
  for (const old of ids.slice(0, Math.max(0, ids.length - 50))) delete seats[old];
  localStorage.setItem("monsterball-seats", JSON.stringify(seats));
}

// -- drawing -----------------------------------------------------------------------------

const CELL = 34;
const HEX_R = 19;

function geometry(board) {
  if (board.grid === "hex") {
    const w = Math.sqrt(3) * HEX_R;
    return {
      width: (board.cols + 0.5) * w + 40,
      height: (board.rows - 1) * 1.5 * HEX_R + 2 * HEX_R + 4,
      center(col, row) {
        return [col * w + (row % 2 ? w / 2 : 0) + w / 2 + 2, (board.rows - 1 - row) * 1.5 * HEX_R + HEX_R + 2];
      },
      shape(cx, cy) {
        const pts = [];
        for (let i = 0; i < 6; i++) {
          const angle = Math.PI / 180 * (60 * i - 30);
          pts.push(`${(cx + HEX_R * Math.cos(angle)).toFixed(1)},${(cy + HEX_R * Math.sin(angle)).toFixed(1)}`);
        }
        return svg("polygon", { points: pts.join(" ") });
      },
      radius: HEX_R * 0.72,
    };
  }
  return {
    width: board.cols * CELL + 40,
    height: board.rows * CELL + 4,
    center(col, row) { return [col * CELL + CELL / 2 + 2, (board.rows - 1 - row) * CELL + CELL / 2 + 2]; },
    shape(cx, cy) {
      return svg("rect", { x: cx - CELL / 2, y: cy - CELL / 2, width: CELL, height: CELL });
    },
    radius: CELL * 0.38,
  };
}

function parseCell(name) {
  const match = /^([a-z])(\d+)$/.exec(name);
  return match ? [match[1].charCodeAt(0) - 97, Number(match[2]) - 1] : null;
}

function drawBoard(board, ui = {}) {
  const geo = geometry(board);
  const root = svg("svg", { class: "board", width: geo.width, height: geo.height,
    viewBox: `0 0 ${geo.width} ${geo.height}`, "data-testid": "board" });
  const zoneOf = {};
  for (const zone of board.zones) {
    for (let r = zone.rows[0]; r <= zone.rows[1]; r++) zoneOf[r] = zone.team;
  }
  const lines = new Set(board.lines);
  const hashes = new Set(board.hash_cols);
  const targets = ui.targets || new Set();
  const cellTargets = ui.cellTargets || new Set();
  for (let row = 0; row < board.rows; row++) {
    for (let col = 0; col < board.cols; col++) {
      const name = String.fromCharCode(97 + col) + (row + 1);
      const [cx, cy] = geo.center(col, row);
      const shape = geo.shape(cx, cy);
      const classes = ["cell"];
      if (lines.has(row)) classes.push("line");
      else if (zoneOf[row] !== undefined) classes.push(`zone-${zoneOf[row]}`);
      else if (hashes.has(col)) classes.push("hash");
      if (targets.has(name)) classes.push("target");
      else if (cellTargets.has(name)) classes.push("cell-target");
      shape.setAttribute("class", classes.join(" "));
      shape.setAttribute("data-cell", name);
      const title = svg("title");
      title.textContent = name;
      shape.append(title);
      if (ui.onCell) shape.addEventListener("click", () => ui.onCell(name));
      root.append(shape);
    }
    if (board.row_labels[String(row)]) {
      const [, cy] = geo.center(board.cols - 1, row);
      const label = svg("text", { x: geo.width - 30, y: cy + 4, class: "row-label" });
      label.textContent = board.row_labels[String(row)];
      root.append(label);
    }
  }
  for (const mark of board.marks) {
    const at = parseCell(mark.cell);
    if (!at) continue;
    const [cx, cy] = geo.center(...at);
    const r = geo.radius;
    let node;
    if (mark.kind === "cone") {
      node = svg("polygon", { points: `${cx},${cy - r} ${cx - r * 0.8},${cy + r * 0.7} ${cx + r * 0.8},${cy + r * 0.7}` });
    } else if (mark.kind === "path" || mark.kind === "punt") {
      node = svg("circle", { cx, cy, r: 3 });
    } else if (mark.kind === "pothole") {
      node = svg("circle", { cx, cy, r: r * 0.5 });
    } else {
      node = svg("circle", { cx, cy, r: mark.kind === "stealth" ? r * 1.05 : r });
    }
    node.setAttribute("class", `mark-${mark.kind}`);
    node.setAttribute("data-mark", mark.kind);
    root.append(node);
  }
  const holderCell = board.ball && board.ball.held ? board.ball.cell : null;
  for (const piece of board.pieces) {
    const at = parseCell(piece.cell);
    if (!at) continue;
    const [cx, cy] = geo.center(...at);
    const r = geo.radius * piece.size;
    const group = svg("g", { class: `piece team-${piece.team}`, "data-piece": piece.id });
    if (piece.flags.includes("out")) group.classList.add("out");
    if (ui.actionable && ui.actionable.has(piece.id)) group.classList.add("actionable");
    if (ui.selected === piece.id) group.classList.add("selected");
    const title = svg("title");
    title.textContent = `${piece.title} at ${piece.cell}`;
    group.append(title, svg("circle", { class: "body", cx, cy, r }));
    if (piece.flags.includes("holder")) group.append(svg("circle", { class: "holder-ring", cx, cy, r: r + 4 }));
    const label = svg("text", { x: cx, y: cy + 4, "text-anchor": "middle" });
    label.textContent = piece.label;
    group.append(label);
    if (ui.onCell) group.addEventListener("click", () => ui.onCell(piece.cell));
    root.append(group);
  }
  if (board.ball) {
    const at = parseCell(board.ball.cell);
    if (at) {
      let [cx, cy] = geo.center(...at);
      const held = holderCell !== null;
      if (held) { cx += geo.radius * 0.7; cy -= geo.radius * 0.7; }
      const size = held ? geo.radius * 0.45 : geo.radius * 0.6;
      const node = board.ball.kind === "ball"
        ? svg("ellipse", { cx, cy, rx: size * 1.3, ry: size * 0.85, class: "ball" })
        : svg("circle", { cx, cy, r: size, class: "disc" });
      node.setAttribute("data-ball", board.ball.cell);
      root.append(node);
    }
  }
  return root;
}

function panelCard(board, extra = []) {
  return el("div", { class: "card" }, el("table", { class: "panel-table", "data-testid": "panel" },
    [...extra, ...board.panel].map(([k, v]) => el("tr", {}, el("td", {}, k), el("td", {}, v)))));
}

function diceCard(log) {
  // The latest dice, newest first, with what they decided (the log's words).
  const rolls = log.filter((e) => e.by === "dice").slice(-4).reverse();
  if (!rolls.length) return null;
  return el("div", { class: "card", "data-testid": "dice" }, el("h2", {}, "Dice"),
    el("ul", { class: "log" }, rolls.map((e) => el("li", {},
      el("strong", {}, e.action), e.events.length ? ` — ${e.events.join(" ")}` : ""))));
}

function logList(entries) {
  const list = el("ul", { class: "log", "data-testid": "log" },
    entries.map((e) => el("li", {},
      el("span", { class: "ply" }, `${e.ply} `), el("span", { class: "by" }, e.by), `: ${e.action}`,
      e.events.length ? ` — ${e.events.join(" ")}` : "")));
  return list;
}

// -- playing -----------------------------------------------------------------------------

function playPage(gameId) {
  const params = new URLSearchParams(location.search);
  const token = params.get("token");
  let socket = null;
  let state = null;
  let selected = null;
  let pending = false;
  let retry = 500;
  let errorText = "";
  let choices = null;
  let textOpen = false;

  function connect() {
    const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/${gameId}` +
      (token ? `?token=${encodeURIComponent(token)}` : "");
    socket = new WebSocket(url);
    socket.onopen = () => { connection.textContent = "connected"; retry = 500; };
    socket.onclose = () => {
      connection.textContent = "reconnecting…";
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 8000);
    };
    socket.onmessage = (event) => {
      const message = JSON.parse(event.data);
      if (message.type === "state") {
        if (!state || message.game.ply !== state.game.ply) { selected = null; choices = null; }
        state = message;
        pending = false;
        errorText = "";
        render();
      } else if (message.type === "error") {
        pending = false;
        errorText = message.message;
        if (message.error === "bad-token" || message.error === "not-found") socket.onclose = null;
        render();
      }
    };
  }

  function send(action) {
    if (!state || pending) return;
    pending = true;
    choices = null;
    socket.send(JSON.stringify({ type: "act", action, ply: state.game.ply }));
    render();
  }

  function choose(options) {
    if (options.length === 1) send(options[0].a);
    else { choices = options; render(); }
  }

  function onCell(cell) {
    if (!state || pending) return;
    const legal = state.legal;
    if (selected) {
      const moves = legal.filter((l) => l.piece === selected && l.cell === cell);
      if (moves.length) { choose(moves); return; }
    }
    const piece = state.board.pieces.find((p) => p.cell === cell);
    if (piece) {
      const mine = legal.filter((l) => l.piece === piece.id);
      const withCell = mine.filter((l) => l.cell);
      if (withCell.length) { selected = selected === piece.id ? null : piece.id; choices = null; render(); return; }
      if (mine.length) { choose(mine); return; }
    }
    const atCell = legal.filter((l) => !l.piece && l.cell === cell);
    if (atCell.length) { choose(atCell); return; }
    selected = null;
    render();
  }

  function render() {
    if (!state) return;
    const legal = state.legal;
    const actionable = new Set(legal.filter((l) => l.piece).map((l) => l.piece));
    const targets = new Set(selected ? legal.filter((l) => l.piece === selected && l.cell).map((l) => l.cell) : []);
    const cellTargets = new Set(legal.filter((l) => !l.piece && l.cell).map((l) => l.cell));
    const board = drawBoard(state.board, { onCell, actionable, selected, targets, cellTargets });
    const mine = legal.length > 0;
    where.textContent = `${state.game.title} · ${state.game.preset || "standard"} · ${state.game.mode}`;
    const turn = state.game.status === "finished"
      ? el("div", { class: "turn", "data-testid": "result" }, state.game.result)
      : el("div", { class: `turn${mine ? " mine" : ""}`, "data-testid": "turn" },
        mine ? `Your move (${state.to_act}): ${state.prompt}` : `${state.to_act || "…"} to act: ${state.prompt}`);
    const chairs = el("div", { class: "chairs" }, state.chairs.map((c) =>
      el("span", { class: [c.name === state.to_act ? "acting" : "", c.name === state.you ? "me" : ""].join(" ") },
        `${c.name}${c.kind === "bot" ? ` (bot: ${c.bot})` : ""}`)));
    const buttons = legal.filter((l) => !l.piece && !l.cell);
    const pieceOnly = selected ? legal.filter((l) => l.piece === selected && !l.cell) : [];
    const actionBar = el("div", { class: "actions", "data-testid": "actions" },
      [...buttons, ...pieceOnly].map((l) => el("button", { onclick: () => send(l.a), disabled: pending, "data-action": l.a }, l.a)));
    const choiceBar = choices ? el("div", { class: "actions choice", "data-testid": "choices" },
      el("span", {}, "Which one?"),
      choices.map((l) => el("button", { onclick: () => send(l.a), "data-action": l.a }, l.a)),
      el("button", { onclick: () => { choices = null; render(); } }, "cancel")) : null;
    const typed = el("input", { placeholder: "or type a move, e.g. A3-e7", "data-testid": "typed", disabled: !mine });
    const typedForm = el("form", { onsubmit: (event) => { event.preventDefault(); if (typed.value.trim()) send(typed.value.trim()); } }, typed);
    const textView = el("div", { class: "textview", "data-testid": "text" }, state.text || "");
    const details = el("details", { open: textOpen || state.text !== null },
      el("summary", {}, "Text view"), textView);
    const loadText = async () => {
      if (state.text !== null) return;
      const query = token ? `?token=${encodeURIComponent(token)}` : "";
      const response = await fetch(`/api/games/${gameId}/text${query}`);
      textView.textContent = await response.text();
    };
    details.addEventListener("toggle", () => {
      textOpen = details.open && state.text === null;
      if (details.open) loadText();
    });
    if (details.open) loadText();
    main.replaceChildren(el("div", { class: "play", "data-ply": state.game.ply, "data-pending": pending,
      "data-selected": selected || "" },
      el("div", { class: "board-wrap" }, board),
      el("div", { class: "side" },
        el("div", { class: "card" }, turn, chairs,
          el("p", { class: "error", "data-testid": "error" }, errorText),
          choiceBar, actionBar, mine ? typedForm : null,
          selected ? el("p", {}, `Selected ${selected}: click a highlighted space.`) : null),
        panelCard(state.board, [["Move", String(state.game.ply)]]),
        diceCard(state.log),
        el("div", { class: "card" }, el("h2", {}, "What happened"), logList(state.log.slice().reverse())),
        el("div", { class: "card" }, details,
          state.game.status === "finished" ? el("a", { href: `/replay/${gameId}`, "data-testid": "to-replay" }, "Replay this game") : null))));
  }

  main.replaceChildren(el("p", {}, "Connecting…"));
  connect();
}

// -- replays -----------------------------------------------------------------------------

async function replayPage(gameId) {
  let step = 0;
  let data = await api(`/api/games/${gameId}/replay?step=0`);
  const total = data.steps;
  let ticket = 0;
  async function go(to) {
    // Quick clicks overlap: show only the answer to the latest request.
    const mine = ++ticket;
    step = Math.max(0, Math.min(total, to));
    const answer = await api(`/api/games/${gameId}/replay?step=${step}`);
    if (mine !== ticket) return;
    data = answer;
    step = answer.step;
    render();
  }
  async function fork() {
    const created = await api(`/api/games/${gameId}/fork`, { method: "POST", body: { ply: step, mode: "hotseat" } });
    location.href = created.chairs.find((c) => c.kind === "human").url;
  }
  function render() {
    where.textContent = `replay · ${data.game.title} · ${data.game.result}`;
    const slider = el("input", { type: "range", min: 0, max: total, value: step, "data-testid": "slider" });
    slider.onchange = () => go(Number(slider.value));
    const jump = el("input", { type: "number", min: 0, max: total, value: step, style: "width:6em", "data-testid": "jump" });
    jump.onchange = () => go(Number(jump.value));
    main.replaceChildren(el("div", { class: "play" },
      el("div", { class: "board-wrap" }, drawBoard(data.board)),
      el("div", { class: "side" },
        el("div", { class: "card" },
          el("div", { class: "turn", "data-testid": "replay-step" }, `Step ${step} of ${total}: ${data.prompt}`),
          el("div", { class: "replay-controls" },
            el("button", { onclick: () => go(0), "data-testid": "first" }, "⏮"),
            el("button", { onclick: () => go(step - 1), "data-testid": "back" }, "◀"),
            el("button", { onclick: () => go(step + 1), "data-testid": "forward" }, "▶"),
            el("button", { onclick: () => go(total), "data-testid": "last" }, "⏭"),
            slider, jump),
          el("p", {},
            el("a", { href: `/api/games/${gameId}/record`, "data-testid": "download" }, "Download the record"), " · ",
            el("button", { onclick: fork, disabled: step >= total, "data-testid": "fork" }, "Play on from here"))),
        panelCard(data.board),
        el("div", { class: "card" }, el("h2", {}, "What happened"), logList(data.log.slice().reverse())))));
  }
  render();
}

// -- routing -----------------------------------------------------------------------------

const path = location.pathname.split("/").filter(Boolean);
if (path[0] === "play" && path[1]) playPage(path[1]);
else if (path[0] === "replay" && path[1]) replayPage(path[1]).catch((e) => { main.textContent = e.message; });
else lobby().catch((e) => { main.textContent = e.message; });
