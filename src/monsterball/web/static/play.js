// The game page: a seat's (or a spectator's) live view over a WebSocket.
import { animate, die, drawBoard, flightIn, legend } from "./board.js";
import { chatPanel, dropMessage, whoAmI } from "./social.js";
import { clockCard, syncClock, tickClocks } from "./clocks.js";
import { applyDelta } from "./delta.js";
import { contributeDice } from "./dice.js";
import { hintFor, saidFor } from "./hints.js";
import { rematchControl } from "./rematch.js";
import { remember } from "./seats.js";
import { api, el, errorPage, seatToken } from "./util.js";

const CELLS = /\b[a-z]\d{1,2}\b/g;
const PRICED = new Set(["tackle", "block", "pass", "fg", "kick", "onside", "punt", "handoff"]);

// The spaces named by the latest move that names any (an "end" or a die names none).
export function lastMoveCells(log) {
  const entry = log.slice().reverse().find((e) => e.by !== "dice" && /\b[a-z]\d{1,2}\b/.test(e.action));
  return new Set(entry ? (entry.action.match(CELLS) || []) : []);
}

// What to do next, in words (the first-game guide).
function guide(legal, selected, cellTargets) {
  if (selected && legal.some((l) => l.piece === selected && l.a.startsWith("throw "))) {
    return `Click a green space to throw to ${selected}: the disc stops there, next to him. Click ${selected} again to choose another receiver.`;
  }
  if (selected) return `Click a green space to move ${selected} there, or click ${selected} again to choose another piece.`;
  const pieces = legal.some((l) => l.piece && l.cell);
  if (pieces) return "Click one of your pieces with a yellow ring, then one of the green spaces it can reach.";
  // What a click on a ringed piece does, where the action's first word says it (issue 33).
  const first = new Set(legal.filter((l) => l.piece).map((l) => l.a.split(" ")[0]));
  if (first.size === 1 && first.has("pass")) return "Click a teammate with a yellow ring to throw him the disc (only free teammates in a straight line have one).";
  if (first.has("monster")) return "Click your defender with a yellow ring to roll monster defence (1 or 6 wins the disc), or press “decline” to let the catch stand.";
  if (first.size === 1 && first.has("take")) return "Click the player with a yellow ring who picks up the disc.";
  if (legal.some((l) => l.piece)) return "Click one of your pieces with a yellow ring to act with it.";
  if (cellTargets.size) return "Click one of the yellow spaces on the board.";
  const words = legal.slice(0, 3).map((l) => `“${l.a}”`).join(", ");
  return `Choose with a button below (${words}${legal.length > 3 ? ", …" : ""}).`;
}

function beep() {
  try {
    const audio = new AudioContext();
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = 660;
    gain.gain.setValueAtTime(0.08, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.25);
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.25);
  } catch { /* no audio: the title still says it */ }
}

function moveList(entries, current, onPick, game) {
  const list = el("ol", { class: "moves", "data-testid": "move-list", "aria-label": "moves" },
    entries.map((e, i) => el("li", { "data-testid": "move", "data-step": i + 1, class: [e.by === "dice" ? "dice" : "", current === i + 1 ? "current" : ""].join(" ") },
      el("button", { type: "button", onclick: () => onPick(i + 1), "aria-label": `show the position after move ${i + 1}` },
        el("span", { class: "ply" }, `${i + 1}.`), el("span", { class: "by" }, e.by), el("code", {}, e.action),
        e.events.length ? el("span", { class: "words" }, e.events.join(" "))
          : saidFor(game, e.action) ? el("span", { class: "words said" }, saidFor(game, e.action)) : null))));
  return list;
}

function yourTeam(state) {
  const chair = state.chairs.find((c) => c.name === state.you);
  return chair ? Object.keys(state.board.teams || { A: 0, B: 1 })[chair.seat] : null;
}

function clockSide(state) {
  const chair = state.chairs.find((c) => c.name === state.you);
  return chair && state.clock ? state.clock.sides[chair.seat].side : null;
}

export function playPage(main, where, connection, gameId) {
  const token = seatToken();
  // Another seat's link opened over this one changes only the fragment: load it afresh.
  window.addEventListener("hashchange", () => { if (seatToken() !== token) location.reload(); });
  let socket = null;
  let state = null;
  let previousBoard = null; // the board last drawn, to animate from
  let drawQueued = false; // a redraw is asked for (drawSoon)
  let selected = null;
  let pending = null; // the ply a sent move was based on, until the server answers
  let retry = 500;
  let errorText = "";
  let notice = "";
  let choices = null;
  let online = false;
  let everConnected = false;
  let fatal = false;
  let moves = [];
  let viewing = null; // {step, data}: a past position shown from the replay API
  let wasMine = false;
  let sound = localStorage.getItem("monsterball-sound") === "on";
  let textOpen = false;
  const seenDice = new Set();
  let odds = null; // Huck + Monster: catch odds of each target while aiming
  let showOdds = localStorage.getItem("monsterball-odds") !== "off";
  let outcomes = null; // Midway: odds of the decisions that roll next
  let movedFrom = new Set();
  let presence = null; // open sockets per chair (polled: who is at the table)
  let roster = null; // Midway: the draft chart and each drafted player's type
  let draftSort = { key: "points", down: false };
  let seatedNames = {}; // chair -> the account seated there (docs/web.md, "Accounts")
  let seatedRatings = {}; // chair -> its account's rating in this game, "?" while provisional
  let ratingsAfter = false; // asked again for them once the game ended
  let rematch = null; // the end panel's rematch part (rematch.js)
  let wasFinished = false;

  function setConnection(text, kind) {
    connection.textContent = text;
    connection.dataset.state = kind;
    connection.setAttribute("data-testid", "connection");
  }

  function fail(title, message) {
    fatal = true;
    setConnection("not connected", "failed");
    document.title = "monsterball — error";
    errorPage(main, title, message);
  }

  function connect() {
    // deltas=1: after the first state, the server sends what changed (docs/web.md).
    const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/${gameId}?deltas=1`;
    socket = new WebSocket(url);
    let resyncing = false; // a whole state was asked for after a delta that did not fit
    // The token goes in the first message, not the URL; until the seat's own state arrives,
    // the spectators' state the server greets every socket with is not shown.
    let seated = !token;
    socket.onopen = () => { if (token) socket.send(JSON.stringify({ type: "seat", token })); };
    setConnection(everConnected ? "reconnecting…" : "connecting…", "connecting");
    socket.onclose = (event) => {
      online = false;
      if (fatal) return;
      if (event.code === 4404 || event.code === 4403) {
        fail("This game cannot be opened", event.reason || "the link is not valid");
        return;
      }
      setConnection(`disconnected — reconnecting in ${Math.round(retry / 1000)} s…`, "offline");
      if (state) render();
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 4000);
    };
    socket.onmessage = (event) => {
      const message = JSON.parse(event.data);
      if (message.type === "state") {
        if (!seated && !message.you) return;
        seated = true;
        resyncing = false;
        contributeDice(socket, message);
        receive(message);
      }
      else if (message.type === "chat") { if (chat) chat.receive(message); }
      else if (message.type === "delta") {
        if (!seated || resyncing || (state && message.ply <= state.game.ply)) return;
        if (!state || message.from !== state.game.ply) {
          resyncing = true;
          socket.send(JSON.stringify({ type: "state" }));
          return;
        }
        const next = applyDelta(state, message.ops);
        if (typeof message.server_ms === "number") next.server_ms = message.server_ms;  // clocks sync to it
        receive(next);
      }
      else if (message.type === "chat-deleted") dropMessage(message.id);
      else if (message.type === "rematch") { if (rematch) rematch.receive(message); }
      else if (message.type === "error") {
        if (message.error === "bad-token" || message.error === "not-found") {
          fail(message.error === "not-found" ? "No such game" : "This seat link is not valid", message.message);
          return;
        }
        pending = null;
        errorText = message.error === "too-many" ? `too many moves at once: ${message.message}` : message.message;
        render();
      }
    };
  }

  function receive(message) {
    const reconnected = !online && everConnected;
    online = true;
    retry = 500;
    setConnection("connected", "connected");
    if (reconnected) {
      notice = pending !== null && message.game.ply === pending
        ? "Reconnected. Your last move did not reach the server: make it again."
        : "Reconnected: this is the current position.";
    }
    everConnected = true;
    if (!state || message.game.ply !== state.game.ply) { selected = null; choices = null; }
    if (state && message.game.ply !== state.game.ply) { errorText = ""; }
    // While a redraw is queued, the board last drawn stays the one to animate from.
    if (!drawQueued) previousBoard = state && !viewing ? state.board : null;
    if (previousBoard && message.game.ply !== state.game.ply) {
      // Where the pieces that just moved came from, to outline with the last move.
      const now = new Map(message.board.pieces.map((p) => [p.id, p.cell]));
      movedFrom = new Set(previousBoard.pieces.filter((p) => now.has(p.id) && now.get(p.id) !== p.cell).map((p) => p.cell));
    }
    const first = !state;
    state = message;
    if (first) {
      if (token && message.you) remember(gameId, [{ name: message.you, url: location.pathname + location.hash }]);
      rematch = rematchControl({ gameId, token, you: message.you, humans: message.chairs.filter((c) => c.kind === "human").length, onChange: () => render() });
      if (message.game.status === "finished") rematch.load();
    } else if (message.game.status === "finished" && !wasFinished) rematch.load();
    wasFinished = message.game.status === "finished";
    syncClock(message);
    pending = null;
    mergeLog(message.log);
    if (message.game.game === "midway") loadRoster();
    if (message.legal.some((l) => l.a.startsWith("throw "))) loadOdds(message.game.ply);
    if (message.game.game === "midway" && token && message.legal.some((l) => PRICED.has(l.a.split(" ")[0]))) loadOutcomes(message.game.ply);
    const mine = state.legal.length > 0;
    if (mine && !wasMine && sound && previousBoard) beep();
    wasMine = mine;
    drawSoon();
  }

  // Moves can arrive faster than a screen redraws (two bots at full speed): they are drawn at
  // most once a frame, or four times a second in a hidden tab, where frames do not run.
  function drawSoon() {
    if (drawQueued) return;
    drawQueued = true;
    const draw = () => { drawQueued = false; render(); };
    if (document.visibilityState === "visible") requestAnimationFrame(draw);
    else setTimeout(draw, 250);
  }

  async function loadMoves() {
    try {
      const data = await api(`/api/games/${gameId}/moves`, { token });
      moves = data.moves;
      if (state) render();
    } catch { /* the live log still shows the latest moves */ }
  }

  async function loadOdds(ply) {
    try {
      const answer = await api(`/api/games/${gameId}/odds`);
      if (answer.ply === ply) { odds = answer; render(); }
    } catch { odds = null; }
  }

  function oddsCard(legal) {
    const current = odds && state && odds.ply === state.game.ply && odds.targets.length && legal.length ? odds : null;
    const toggle = el("input", { type: "checkbox", checked: showOdds, "data-testid": "odds-toggle", "aria-label": "show the catch odds" });
    toggle.onchange = () => { showOdds = toggle.checked; localStorage.setItem("monsterball-odds", showOdds ? "on" : "off"); render(); };
    if (!current) return null;
    const bids = (t) => [t.mark ? "a Mark" : "", t.intercepts ? `${t.intercepts} Intercept${t.intercepts > 1 ? "s" : ""}` : "",
      t.catch_marks ? `${t.catch_marks} catch Mark${t.catch_marks > 1 ? "s" : ""}` : "", t.challenges ? `${t.challenges} Challenge${t.challenges > 1 ? "s" : ""}` : ""]
      .filter(Boolean).join(", ") || "nobody bids";
    const shown = current.targets.filter((t) => !selected || t.receiver === selected).sort((a, b) => b.p - a.p);
    return el("div", { class: "card odds" },
      el("h2", {}, `Catch odds (a throw of ${current.targets[0].count})`),
      current.caveats.length ? el("p", { class: "caveat", "data-testid": "odds-caveat" },
        `Not counted in these figures: ${current.caveats.join("; ")}.`) : null,
      el("label", { class: "option" }, toggle, " show the exact odds"),
      showOdds ? [
        el("p", { class: "muted" }, selected ? `Targets for ${selected}, best first. ` : "Every target, best first; choose a receiver to see his. ",
          "Exact, against the bidders the disc would meet on the path the engine chooses."),
        el("ol", { class: "odds-list" }, shown.slice(0, 12).map((t) => el("li", { "data-action": t.action },
          el("strong", { "data-testid": "odds", title: t.exact }, `${(100 * t.p).toFixed(1)}%`),
          current.caveats.length ? el("sup", { title: current.caveats.join("; ") }, "*") : null,
          ` ${t.receiver} at ${t.cell} — ${bids(t)}`))),
        current.caveats.length ? el("p", { class: "muted" }, "* before the dice named above.") : null] : null);
  }

  async function loadOutcomes(ply) {
    try {
      const answer = await api(`/api/games/${gameId}/outcomes`, { token });
      if (answer.ply === ply) { outcomes = answer; render(); }
    } catch { outcomes = null; }
  }

  // Midway: the chance of each kind of outcome of the die a decision rolls.
  function outcomesCard(legal) {
    if (!outcomes || !state || outcomes.ply !== state.game.ply || !outcomes.decisions.length || !legal.length) return null;
    const toggle = el("input", { type: "checkbox", checked: showOdds, "data-testid": "odds-toggle", "aria-label": "show the odds" });
    toggle.onchange = () => { showOdds = toggle.checked; localStorage.setItem("monsterball-odds", showOdds ? "on" : "off"); render(); };
    const shown = outcomes.decisions.filter((d) => !selected || d.action.includes(selected));
    return el("div", { class: "card odds" }, el("h2", {}, "Odds of your decisions"),
      el("label", { class: "option" }, toggle, " show the exact odds"),
      showOdds ? [el("p", { class: "muted" }, "From the tables the engine rolls on, for the die each decision rolls next."),
        el("ul", { class: "odds-list" }, shown.slice(0, 12).map((d) => el("li", { "data-action": d.action },
          el("code", {}, d.action), " — ",
          d.outcomes.map((o, i) => [i ? "; " : "", el("strong", { "data-testid": "odds", title: o.exact }, `${(100 * o.p).toFixed(1)}%`), ` ${o.what}`]))))] : null);
  }

  async function loadRoster() {
    if (roster && !roster.drafting && Object.keys(roster.players).length >= 20) return;
    try { roster = await api(`/api/games/${gameId}/roster`); render(); } catch { /* the text view has it too */ }
  }

  function playerLabel(action) {
    const who = /^([A-Z]\d+)\b/.exec(action);
    const kind = who && roster && roster.players[who[1]];
    if (!kind) return action;
    const row = roster.types.find((t) => t.type === kind);
    return `${action} — ${kind}${row ? ` (size ${row.size}, move ${row.mv})` : ""}`;
  }

  function draftCard(legal) {
    const drafts = new Set(legal.filter((l) => /^draft \S+$/.test(l.a)).map((l) => l.a.slice(6)));
    if (!roster || !drafts.size) return null;
    const columns = [["type", "type"], ["points", "cost"], ["size", "size"], ["mv", "move"], ["qb", "QB range"], ["rec", "receive"], ["magic", "ability"], ["good_at", "good at"]];
    const rows = roster.types.slice().sort((a, b) => {
      const [x, y] = [a[draftSort.key], b[draftSort.key]];
      const order = typeof x === "number" ? x - y : String(x).localeCompare(String(y));
      return draftSort.down ? -order : order;
    });
    const team = roster.teams.find((t) => t.team === roster.drafting) || roster.teams[0];
    const sortBy = (key) => { draftSort = { key, down: draftSort.key === key && !draftSort.down }; render(); };
    return el("div", { class: "card", "data-testid": "draft" },
      el("h2", {}, `Draft for team ${team.team}`),
      el("p", { "data-testid": "points-left" }, `${team.points} of ${roster.max_points} points left, ${team.slots} players to pick.`,
        team.picked.length ? ` Drafted: ${team.picked.join(", ")}.` : ""),
      el("div", { class: "table-scroll" }, el("table", { class: "draft" },
        el("tr", {}, columns.map(([key, label]) => el("th", {}, el("button", { type: "button", class: "sort", onclick: () => sortBy(key),
          "aria-label": `sort by ${label}` }, label, draftSort.key === key ? (draftSort.down ? " ▼" : " ▲") : ""))), el("th", {})),
        rows.map((t) => el("tr", { class: drafts.has(t.type) ? "" : "unaffordable" },
          el("td", {}, t.type), el("td", {}, t.points), el("td", {}, t.size), el("td", {}, t.mv), el("td", {}, t.qb),
          el("td", {}, t.rec >= 0 ? `+${t.rec}` : t.rec), el("td", {}, t.magic || "—"), el("td", { class: "good-at" }, t.good_at || ""),
          el("td", {}, el("button", { onclick: () => send(`draft ${t.type}`), disabled: !drafts.has(t.type) || pending !== null,
            "data-action": `draft ${t.type}`, title: drafts.has(t.type) ? "" : "would leave too few points for a full team" }, "draft")))))));
  }

  function mergeLog(log) {
    if (!log.length) return;
    const last = moves.length ? moves[moves.length - 1].ply : null;
    if (last === null && log[0].ply > 1 && !moves.length) { moves = log.slice(); loadMoves(); return; }
    const fresh = log.filter((e) => last === null || e.ply > last);
    if (fresh.length && last !== null && fresh[0].ply > last + 1) { loadMoves(); return; }
    moves = moves.concat(fresh);
  }

  function send(action) {
    if (!state || pending !== null || viewing) return;
    errorText = "";
    notice = "";
    if (!online || !socket || socket.readyState !== WebSocket.OPEN) {
      errorText = "Not connected: the move was not sent. The page reconnects by itself.";
      render();
      return;
    }
    pending = state.game.ply;
    choices = null;
    socket.send(JSON.stringify({ type: "act", action, ply: state.game.ply }));
    render();
  }

  function choose(options) {
    if (options.length === 1) send(options[0].a);
    else { choices = options; render(); }
  }

  function onCell(cell) {
    if (!state || pending !== null || !online || viewing) return;
    errorText = "";
    notice = "";
    const legal = state.legal;
    if (selected) {
      const hits = legal.filter((l) => l.piece === selected && l.cell === cell);
      if (hits.length) { choose(hits); return; }
    }
    const piece = state.board.pieces.find((p) => p.cell === cell);
    if (piece) {
      const own = legal.filter((l) => l.piece === piece.id);
      if (own.some((l) => l.cell)) { selected = selected === piece.id ? null : piece.id; choices = null; render(); return; }
      if (own.length) { choose(own); return; }
    }
    const atCell = legal.filter((l) => !l.piece && l.cell === cell);
    if (atCell.length) { choose(atCell); return; }
    selected = null;
    render();
  }

  async function view(step) {
    if (step >= moves.length) { viewing = null; render(); return; }
    try {
      viewing = { step, data: await api(`/api/games/${gameId}/replay?step=${step}`) };
    } catch (error) { errorText = error.message; }
    render();
  }

  function endPanel() {
    const score = state.board.panel.find(([k]) => k === "Score");
    if (chat) chat.over();
    if (!ratingsAfter && Object.keys(seatedRatings).length) {
      // The ratings are settled just after the end is told: ask again a moment later.
      ratingsAfter = true;
      setTimeout(() => api(`/api/games/${gameId}/players`).then((found) => { seatedRatings = found.ratings || {}; render(); }).catch(() => {}), 1500);
    }
    return el("div", { class: "card end-panel", "data-testid": "end-panel", role: "status" },
      el("h2", {}, "Game over"),
      el("p", { class: "result", "data-testid": "result" }, state.game.result),
      score && !state.game.result.includes(score[1]) ? el("p", { class: "score" }, score[1]) : null,
      rematch.node(),
      el("div", { class: "actions" },
        el("a", { class: "button", href: "/", "data-testid": "new-game" }, "New game"),
        el("a", { class: "button", href: `/replay/${gameId}`, "data-testid": "to-replay" }, "Replay"),
        el("a", { class: "button", href: `/api/games/${gameId}/record`, "data-testid": "download" }, "Download")),
      state.game.dice_seed ? el("p", { class: "fair" }, "Dice seed revealed: ", el("code", { "data-testid": "dice-seed" }, String(state.game.dice_seed))) : null);
  }

  function diceCard(log) {
    const rolls = log.filter((e) => e.by === "dice").slice(-4).reverse();
    if (!rolls.length) return null;
    return el("div", { class: "card", "data-testid": "dice" }, el("h2", {}, "Dice"),
      el("ul", { class: "dice-list" }, rolls.map((e) => {
        const key = `${e.ply}`;
        const fresh = !seenDice.has(key);
        seenDice.add(key);
        return el("li", {}, die(e.action, fresh), el("span", {}, e.events.join(" ")));
      })));
  }

  function render() {
    if (!state || fatal) return;
    const legal = viewing || !online ? [] : state.legal;
    const mine = state.legal.length > 0;
    const board = viewing ? viewing.data.board : state.board;
    const actionable = new Set(legal.filter((l) => l.piece).map((l) => l.piece));
    const targets = new Set(selected ? legal.filter((l) => l.piece === selected && l.cell).map((l) => l.cell) : []);
    const cellTargets = new Set(legal.filter((l) => !l.piece && l.cell).map((l) => l.cell));
    const log = viewing ? viewing.data.log : state.log;
    const cellOdds = {};
    if (showOdds && selected && odds && odds.ply === state.game.ply && !viewing) {
      for (const t of odds.targets) if (t.receiver === selected) cellOdds[t.cell] = `${Math.round(100 * t.p)}%`;
    }
    const drawing = drawBoard(board, { onCell, actionable, selected, targets, cellTargets, lastCells: viewing ? lastMoveCells(log) : new Set([...lastMoveCells(log), ...movedFrom]), odds: cellOdds });
    if (!viewing && previousBoard) animate(drawing, previousBoard, board, flightIn(state.log.slice(-3)));
    previousBoard = null;
    const finished = state.game.status === "finished";
    where.textContent = `${state.game.title} · ${state.game.preset || "standard"} · ${state.game.mode}`;
    document.title = `${mine && !finished ? "(Your move) " : ""}${state.game.title} — monsterball`;
    const acting = state.chairs.find((c) => c.name === state.to_act);
    // A bot to act, or a move sent in a game with a bot (the server answers once the bot has
    // made its reply, so the wait is the bot's thinking).
    const bot = acting && acting.kind === "bot" ? acting : (pending !== null ? state.chairs.find((c) => c.kind === "bot") : null);
    const thinking = !finished && bot;
    const turn = finished ? null
      : el("div", { class: `turn${mine ? " mine" : ""}`, "data-testid": "turn", "aria-live": "polite" },
        mine ? `Your move (${state.to_act}): ${state.prompt}` : `${state.to_act || "…"} to act: ${state.prompt}`);
    const chairs = el("div", { class: "chairs" }, state.chairs.map((c) =>
      el("span", { class: [c.name === state.to_act ? "acting" : "", c.name === state.you ? "me" : ""].join(" ") },
        `${c.name}${c.kind === "bot" ? ` (bot: ${c.bot})` : ""}`,
        seatedNames[c.name] ? [" · ", el("a", { href: `/players/${encodeURIComponent(seatedNames[c.name])}`, "data-testid": `player-${c.name}` }, seatedNames[c.name]),
          seatedRatings[c.name] ? el("span", { class: "muted", "data-testid": `rating-${c.name}`, title: "rating (? while provisional)" }, ` (${seatedRatings[c.name]})`) : null] : null,
        c.name === state.you && state.game.mode !== "hotseat" ? " · you" : "",
        presence && c.kind === "human" && state.game.mode !== "hotseat" ? el("span", { class: `presence ${presence.chairs[c.name] ? "on" : "off"}`, "data-testid": `presence-${c.name}`,
          title: presence.chairs[c.name] ? "connected" : "not connected" }, presence.chairs[c.name] ? " ● here" : " ○ away") : null)),
      presence && presence.spectators ? el("span", { class: "muted" }, ` ${presence.spectators} watching`) : null);
    const draft = draftCard(legal);
    const buttons = legal.filter((l) => !l.piece && !l.cell && !(draft && /^draft \S+$/.test(l.a) && !["draft best", "draft random"].includes(l.a)));
    const pieceOnly = selected ? legal.filter((l) => l.piece === selected && !l.cell) : [];
    const actionBar = el("div", { class: "actions", "data-testid": "actions" },
      [...buttons, ...pieceOnly].map((l) => el("button", { onclick: () => send(l.a), disabled: pending !== null, "data-action": l.a, title: hintFor(state.game.game, l.a) || "" }, l.a)));
    const hinted = [...buttons, ...pieceOnly].filter((l) => hintFor(state.game.game, l.a)).slice(0, 8);
    const hintList = hinted.length ? el("ul", { class: "hints", "data-testid": "hints" }, hinted.map((l) =>
      el("li", {}, el("strong", {}, l.a), `: ${hintFor(state.game.game, l.a)}`))) : null;
    const choiceBar = choices ? el("div", { class: "actions choice", "data-testid": "choices" },
      el("span", {}, "Which one?"),
      choices.map((l) => el("button", { onclick: () => send(l.a), "data-action": l.a, title: hintFor(state.game.game, l.a) || "" }, playerLabel(l.a))),
      el("button", { onclick: () => { choices = null; render(); } }, "cancel")) : null;
    const typed = el("input", { placeholder: "or type a move, e.g. A3-e7", "data-testid": "typed", "aria-label": "type a move in notation", disabled: !mine || !online });
    const typedForm = el("form", { onsubmit: (event) => { event.preventDefault(); if (typed.value.trim()) send(typed.value.trim()); } }, typed);
    const textView = el("div", { class: "textview", "data-testid": "text" }, state.text || "");
    const details = el("details", { open: textOpen || state.text !== null }, el("summary", {}, "Text view"), textView);
    const loadText = async () => {
      if (state.text !== null) return;
      const response = await fetch(`/api/games/${gameId}/text`, { headers: token ? { "seat-token": token } : {} });
      textView.textContent = await response.text();
    };
    details.addEventListener("toggle", () => { textOpen = details.open && state.text === null; if (details.open) loadText(); });
    if (details.open) loadText();
    const soundBox = el("input", { type: "checkbox", checked: sound, "aria-label": "play a sound when it is your move" });
    soundBox.onchange = () => { sound = soundBox.checked; localStorage.setItem("monsterball-sound", sound ? "on" : "off"); };
    const banner = viewing
      ? el("div", { class: "viewing", "data-testid": "viewing" }, `Showing the position after move ${viewing.step} of ${moves.length}. `,
        el("button", { onclick: () => { viewing = null; render(); }, "data-testid": "live" }, "Back to the game"))
      : null;
    const offline = !online;
    const moveCard = el("div", { class: "card" }, el("h2", {}, `Moves (${moves.length})`),
      moveList(moves, viewing ? viewing.step : null, view, state.game.game));
    main.replaceChildren(el("div", { class: `play${offline ? " offline" : ""}`, "data-ply": state.game.ply,
      "data-pending": pending !== null, "data-selected": selected || "", "data-online": online },
    el("div", { class: "board-col" },
      banner,
      draft,
      el("div", { class: "board-wrap", "aria-disabled": offline || Boolean(viewing) }, drawing,
        offline ? el("div", { class: "offline-veil", "data-testid": "offline", role: "status" }, "reconnecting…") : null),
    ),
    legend(board, state.game.mode === "hotseat" ? null : yourTeam(state), state.game.game === "midway" ? "ball" : "disc"),
    el("div", { class: "side" },
      finished ? endPanel() : null,
      clockCard(state.clock, clockSide(state), finished),
      el("div", { class: "card" }, turn,
        thinking ? el("div", { class: "thinking", "data-testid": "thinking" },
          bot === acting ? `${bot.name} (bot) is thinking` : `move sent, waiting for the reply (${bot.name}, a bot, may be thinking)`,
          el("span", { class: "dots" }, "…")) : null,
        chairs,
        notice ? el("p", { class: "notice", "data-testid": "notice", role: "status" }, notice) : null,
        errorText ? el("p", { class: "error", "data-testid": "move-error", role: "alert" }, errorText) : null,
        mine && !finished && !viewing && online ? el("p", { class: "guide", "data-testid": "guide" },
          draft ? "Pick a type in the draft table (its cost, size, move and ability are listed), or let “draft best” choose." : guide(legal, selected, cellTargets)) : null,
        choiceBar, actionBar, hintList, mine && !finished ? typedForm : null,
        el("label", { class: "option" }, soundBox, " sound when it is my move"),
        state.game.dice_commitment ? el("p", { class: "fair", title: "sha256 of the secret dice seed, revealed when the game ends" }, "Dice commitment: ",
          el("code", { "data-testid": "dice-commitment" }, state.game.dice_commitment)) : null),
      el("div", { class: "card panel" }, el("table", { class: "panel-table", "data-testid": "panel" },
        [["Move", String(state.game.ply)], ...board.panel].map(([k, v]) => el("tr", {}, el("td", {}, k), el("td", {}, v))))),
      oddsCard(legal),
      outcomesCard(legal),
      diceCard(state.log),
      moveCard,
      el("div", { class: "card" }, details, el("p", {}, el("a", { href: `/guide/${state.game.game}`, "data-testid": "guide-link" }, "How to play"),
        " · ", el("a", { href: `/learn/${state.game.game}` }, "Lessons"), " · ", el("a", { href: `/rules/${state.game.game}` }, "Rules in detail"))))));
    const list = moveCard.querySelector(".moves");
    if (list && !viewing) list.scrollTop = list.scrollHeight;
  }

  async function pollPresence() {
    if (fatal) return;
    if (online && document.visibilityState === "visible") {
      try {
        const now = await api(`/api/games/${gameId}/presence`);
        if (JSON.stringify(now) !== JSON.stringify(presence)) { presence = now; render(); }
      } catch { /* shown again at the next poll */ }
    }
    setTimeout(pollPresence, 4000);
  }

  main.replaceChildren(el("p", { "data-testid": "connecting" }, "Connecting…"));
  window.addEventListener("monsterball-hints", () => { if (state) render(); });
  // The chat lives beside the page (below it), so redrawing the game keeps what is typed.
  let chat = null;
  whoAmI().then((me) => {
    // A logged-in player's seat is kept in the account: its session resumes it without the link.
    const claimed = me && token ? api(`/api/games/${gameId}/claim`, { method: "POST", body: { token } }).catch(() => {}) : Promise.resolve();
    claimed.then(() => api(`/api/games/${gameId}/players`)).then((found) => { seatedNames = found.players; seatedRatings = found.ratings || {}; if (state) render(); }).catch(() => {});
    chat = chatPanel(gameId, token, me);
    if (state && state.game.status === "finished") chat.over();
    main.after(el("div", { class: "chat-dock" }, chat.node));
  });
  setInterval(() => tickClocks(main), 200);
  connect();
  setTimeout(pollPresence, 300);
  loadMoves();
}
