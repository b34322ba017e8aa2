// Accounts, challenges, chat and player pages (docs/web.md). Every text a person typed (names,
// chat) is put in the page as a text node by el(), never parsed as HTML.
import { api, el, errorPage, svg } from "./util.js";
import { lobbyOffer } from "./rematch.js";

export const CLOCKS = [
  ["none", "no clock", null],
  ["1+0", "1 min", { kind: "realtime", minutes: 1, increment: 0 }],
  ["5+3", "5 min + 3 s", { kind: "realtime", minutes: 5, increment: 3 }],
  ["10+5", "10 min + 5 s", { kind: "realtime", minutes: 10, increment: 5 }],
  ["30+20", "30 min + 20 s", { kind: "realtime", minutes: 30, increment: 20 }],
  ["1d", "1 day a move", { kind: "correspondence", days: 1 }],
  ["3d", "3 days a move", { kind: "correspondence", days: 3 }],
];

export function clockText(clock) {
  if (!clock) return "no clock";
  return clock.kind === "realtime" ? `${clock.minutes} min + ${clock.increment} s` : `${clock.days} day${clock.days === 1 ? "" : "s"} a move`;
}

export async function whoAmI() {
  try { return (await api("/api/session")).name; } catch { return null; }
}

// The header's account corner: the name (a link to the player page) and "log out".
export function accountCorner(me) {
  const corner = document.getElementById("account");
  if (!corner) return;
  if (!me) {
    corner.replaceChildren(el("a", { href: "/#account", "data-testid": "login-link" }, "log in / sign up"));
    return;
  }
  const out = el("button", { type: "button", class: "link", "data-testid": "logout" }, "log out");
  out.onclick = async () => { await api("/api/session", { method: "DELETE" }); location.href = "/"; };
  corner.replaceChildren(el("a", { href: `/players/${encodeURIComponent(me)}`, "data-testid": "me" }, me), " · ", out);
}

function accountCard(me) {
  if (me) return null;
  const name = el("input", { name: "name", autocomplete: "username", "data-testid": "account-name", "aria-label": "name", placeholder: "name" });
  const password = el("input", { name: "password", type: "password", autocomplete: "current-password", "data-testid": "account-password", "aria-label": "password", placeholder: "password", title: "8 to 128 characters" });
  const message = el("p", { class: "error", role: "alert", "data-testid": "account-error" });
  const send = (path) => async (event) => {
    event.preventDefault();
    message.textContent = "";
    try {
      await api(path, { method: "POST", body: { name: name.value.trim(), password: password.value } });
      location.reload();
    } catch (error) { message.textContent = error.message; }
  };
  const login = el("button", { class: "primary", type: "submit", "data-testid": "login" }, "Log in");
  const signup = el("button", { type: "button", "data-testid": "signup" }, "Sign up");
  signup.onclick = send("/api/accounts");
  return el("form", { class: "card account", id: "account", "data-testid": "account-form", onsubmit: send("/api/session") },
    el("h2", {}, "Play strangers"),
    el("p", { class: "muted" }, "An account keeps your games and lets you post and take challenges. Playing by link needs none."),
    el("div", { class: "row" }, name, password, login, signup), message);
}

function yourGames(games, titles) {
  if (!games.length) return el("p", { class: "muted", "data-testid": "no-your-games" }, "None yet: post or take a challenge.");
  return el("div", { class: "table-scroll" }, el("table", { class: "games", "data-testid": "your-games" },
    el("tr", {}, el("th", {}, "game"), el("th", {}, "seat"), el("th", {}, "moves"), el("th", {}, "result"), el("th", {})),
    games.map((g) => el("tr", {}, el("td", {}, titles[g.game] || g.game), el("td", {}, g.seat), el("td", {}, g.moves),
      el("td", {}, g.result), el("td", {}, el("a", { href: g.url, "data-testid": `your-game-${g.id}` }, g.status === "playing" ? "resume" : "replay"))))));
}

// The lobby's people: sign-up/log-in, your games, open challenges, quick pairing, lobby chat.
export async function lobbySocial(me, catalog, titles) {
  const box = el("div", { class: "social" });
  const list = el("div", { "data-testid": "challenges" });
  const message = el("p", { class: "error", role: "alert", "data-testid": "challenge-error" });
  const relations = me ? await api("/api/relations").catch(() => ({ mute: [], block: [] })) : { mute: [], block: [] };
  const hidden = new Set([...relations.mute, ...relations.block]);

  async function showChallenges() {
    const { challenges } = await api("/api/challenges");
    if (!challenges.length) { list.replaceChildren(el("p", { class: "muted", "data-testid": "no-challenges" }, "No open challenges.")); return; }
    list.replaceChildren(el("div", { class: "table-scroll" }, el("table", { class: "games" },
      el("tr", {}, el("th", {}, "by"), el("th", {}, "game"), el("th", {}, "clock"), el("th", {}, ""), el("th", {})),
      challenges.map((c) => {
        const act = c.mine
          ? el("button", { type: "button", "data-testid": `withdraw-${c.id}`, onclick: () => run(api(`/api/challenges/${c.id}`, { method: "DELETE" })) }, "withdraw")
          : el("button", { type: "button", class: "primary", "data-testid": `accept-${c.id}`, onclick: () => run(api(`/api/challenges/${c.id}/accept`, { method: "POST" }).then((g) => { location.href = g.url; })) }, "accept");
        return el("tr", { "data-testid": "challenge" },
          el("td", {}, el("a", { href: `/players/${encodeURIComponent(c.by)}` }, c.by),
            el("span", { class: "muted", "data-testid": "challenge-rating", title: "rating in this game (? while provisional)" }, ` (${c.rating_shown})`)),
          el("td", {}, c.title, c.preset ? el("span", { class: "tag" }, ` ${c.preset}`) : null),
          el("td", {}, clockText(c.clock)), el("td", {}, c.rated ? "rated" : "casual", c.seat ? ` · plays ${c.seat}` : ""), el("td", {}, act));
      }))));
  }
  async function run(promise) {
    message.textContent = "";
    try { await promise; await showChallenges(); } catch (error) { message.textContent = error.message; }
  }

  const gameSelect = el("select", { "data-testid": "challenge-game", "aria-label": "game" }, catalog.games.map((g) => el("option", { value: g.id }, g.title)));
  const clockSelect = el("select", { "data-testid": "challenge-clock", "aria-label": "clock" }, CLOCKS.map(([v, label]) => el("option", { value: v }, label)));
  const rated = el("input", { type: "checkbox", "data-testid": "challenge-rated" });
  const seatSelect = el("select", { "data-testid": "challenge-seat", "aria-label": "your seat" },
    el("option", { value: "" }, "random side"), el("option", { value: "A" }, "I play A"), el("option", { value: "B" }, "I play B"));
  const clock = () => CLOCKS.find(([v]) => v === clockSelect.value)[2];
  const waiting = el("span", { class: "muted", "data-testid": "pairing" });
  const post = el("button", { type: "button", class: "primary", "data-testid": "post-challenge" }, "Post challenge");
  post.onclick = () => run(api("/api/challenges", { method: "POST", body: { game: gameSelect.value, clock: clock(), rated: rated.checked, seat: seatSelect.value || null } }));
  const quick = el("button", { type: "button", "data-testid": "quick-pair", title: "play the next player who asks for this game and clock, of close rating" }, "Quick pair");
  quick.onclick = async () => {
    message.textContent = "";
    try {
      const answer = await api("/api/pairing", { method: "POST", body: { game: gameSelect.value, clock: clock(), rated: rated.checked } });
      if (answer.status === "started") location.href = answer.url;
      else waiting.textContent = `waiting for an opponent (${titles[gameSelect.value]}, ${clockText(clock())})…`;
    } catch (error) { message.textContent = error.message; }
  };
  const controls = me
    ? el("div", { class: "row" }, gameSelect, clockSelect, seatSelect, el("label", { class: "inline" }, rated, " rated"), post, quick, waiting)
    : el("p", { class: "muted" }, "Log in to post a challenge or to pair quickly; anyone may accept a casual challenge.");

  const chatLog = el("ol", { class: "chat-log", "data-testid": "lobby-chat-log" });
  const addChat = (m) => { if (!hidden.has(m.author)) { chatLog.append(chatLine(m, me, hidden)); chatLog.scrollTop = chatLog.scrollHeight; } };
  const chatCard = el("div", { class: "card" }, el("h2", {}, "Lobby chat"), chatLog,
    me ? chatForm((text) => api("/api/lobby/chat", { method: "POST", body: { text } }), "lobby-chat")
      : el("p", { class: "muted" }, "Log in to chat."));

  const mine = me ? (await api("/api/my/games")).games : [];
  box.append(
    accountCard(me) || el("div", { class: "card" }, el("h2", {}, "Your games"), yourGames(mine, titles)),
    el("div", { class: "card" }, el("h2", {}, "Open challenges"), list, controls, message),
    chatCard);
  await showChallenges();
  (await api("/api/lobby/chat")).messages.forEach(addChat);
  lobbySocket({
    challenges: () => showChallenges().catch(() => {}),
    started: (m) => { location.href = m.url; },
    "rematch-offer": (m) => box.prepend(lobbyOffer(m)),
    chat: (m) => addChat(m.message),
    "chat-deleted": (m) => dropMessage(m.id),
  });
  return box;
}

function lobbySocket(handlers) {
  const socket = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws-lobby`);
  socket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    const handler = handlers[message.type];
    if (handler) handler(message);
  };
  socket.onclose = () => setTimeout(() => lobbySocket(handlers), 3000);
}

function chatForm(send, testid) {
  const input = el("input", { maxlength: 500, placeholder: "say something (text only)", "data-testid": `${testid}-input`, "aria-label": "chat message" });
  const error = el("p", { class: "error", role: "alert" });
  return el("form", { class: "chat-form", onsubmit: async (event) => {
    event.preventDefault();
    if (!input.value.trim()) return;
    error.textContent = "";
    try { await send(input.value); input.value = ""; } catch (e) { error.textContent = e.message; }
  } }, input, el("button", { type: "submit", "data-testid": `${testid}-send` }, "send"), error);
}

// A message a moderator deleted (`monsterball admin delete-message`) leaves every open page.
export function dropMessage(id) {
  for (const node of document.querySelectorAll(`[data-testid=chat-message][data-id="${Number(id)}"]`)) node.remove();
}

// One message: the author, the text (a text node, whatever it holds), and for other
// accounts' messages mute, block and report.
function chatLine(m, me, hidden) {
  const tools = [];
  if (m.account && me && m.author !== me) {
    const relate = (kind) => async () => {
      await api("/api/relations", { method: "POST", body: { name: m.author, kind } });
      hidden.add(m.author);
      for (const node of document.querySelectorAll(`[data-author="${CSS.escape(m.author)}"]`)) node.remove();
    };
    tools.push(el("button", { type: "button", class: "link", title: "hide this player's messages from me", onclick: relate("mute") }, "mute"),
      el("button", { type: "button", class: "link", title: "mute, and refuse this player's challenges and chat", onclick: relate("block") }, "block"));
  }
  const report = el("button", { type: "button", class: "link", "data-testid": `report-${m.id}`, title: "send this message to the moderators" }, "report");
  report.onclick = async () => {
    try { await api(`/api/chat/${m.id}/report`, { method: "POST" }); report.textContent = "reported"; report.disabled = true; } catch (e) { report.textContent = e.message; }
  };
  tools.push(report);
  return el("li", { "data-testid": "chat-message", "data-author": m.author, "data-id": m.id },
    el("strong", { class: "chat-author" }, m.author), " ", el("span", { class: "chat-text", "data-testid": "chat-text" }, m.text),
    el("span", { class: "chat-tools" }, tools));
}

// A game's chat: the asker's channel (players' or spectators'), live from the game's socket.
export function chatPanel(gameId, token, me) {
  const log = el("ol", { class: "chat-log", "data-testid": "game-chat-log" });
  const hidden = new Set();
  const title = el("h2", {}, "Chat");
  const seen = new Set();
  const add = (m) => {
    if (seen.has(m.id) || hidden.has(m.author)) return;
    seen.add(m.id);
    log.append(chatLine(m, me, hidden));
    log.scrollTop = log.scrollHeight;
  };
  const form = chatForm((text) => api(`/api/games/${gameId}/chat`, { method: "POST", token, body: { text } }).then(add), "game-chat");
  const note = el("p", { class: "muted" });
  const node = el("div", { class: "card chat-card", "data-testid": "game-chat" }, title, log, form, note);
  let channel = null, offered = false;
  // Once the game is over, the players may read what the spectators said (hidden during play).
  function over() {
    if (offered || channel !== "players") return;
    offered = true;
    const read = el("button", { type: "button", "data-testid": "read-spectators" }, "Read the spectators' chat");
    read.onclick = async () => {
      read.disabled = true;
      try {
        const answer = await api(`/api/games/${gameId}/chat?channel=spectators`, { token });
        const theirs = el("ol", { class: "chat-log", "data-testid": "spectators-chat-log" },
          answer.messages.filter((m) => !hidden.has(m.author)).map((m) => chatLine(m, me, hidden)));
        read.replaceWith(el("h3", {}, "Spectators' chat"),
          answer.messages.length ? theirs : el("p", { class: "muted", "data-testid": "spectators-chat-empty" }, "The spectators said nothing."));
      } catch (error) { read.disabled = false; note.textContent = error.message; }
    };
    node.append(read);
  }
  const ready = (async () => {
    if (me) {
      const relations = await api("/api/relations").catch(() => ({ mute: [], block: [] }));
      for (const name of [...relations.mute, ...relations.block]) hidden.add(name);
    }
    try {
      const answer = await api(`/api/games/${gameId}/chat`, { token });
      channel = answer.channel;
      title.textContent = answer.channel === "players" ? "Players' chat" : "Spectators' chat";
      if (answer.channel === "spectators" && !me) { form.hidden = true; note.textContent = "Log in to chat with the other spectators."; }
      answer.messages.forEach(add);
    } catch (error) { note.textContent = error.message; }
  })();
  return { node, receive: (message) => add(message.message), over: () => { ready.then(over); } };
}

// One game's rating history as an inline SVG line: the start (1500) then the rating after each
// rated game, with the band of ± one rating deviation shaded; each point's figures in a tooltip.
export function ratingPlot(entry) {
  const W = 520, H = 170, L = 46, R = 10, T = 10, B = 22;
  const points = [{ rating: 1500, rd: 350, shown: "1500?", at: null }, ...entry.history];
  const lows = points.map((p) => p.rating - p.rd), highs = points.map((p) => p.rating + p.rd);
  const ratings = points.map((p) => p.rating);
  // The scale fits the ratings (with a margin), not the wide early deviations.
  let lo = Math.min(...ratings) - 40, hi = Math.max(...ratings) + 40;
  const x = (i) => L + (points.length === 1 ? 0 : (i * (W - L - R)) / (points.length - 1));
  const y = (r) => T + ((hi - Math.min(hi, Math.max(lo, r))) * (H - T - B)) / (hi - lo);
  const plot = svg("svg", { viewBox: `0 0 ${W} ${H}`, width: W, height: H, class: "rating-plot", role: "img", "data-testid": `rating-plot-${entry.game}`,
    "aria-label": `${entry.title} rating after each rated game` });
  const band = points.map((p, i) => `${x(i)},${y(highs[i])}`).concat(points.map((p, i) => `${x(i)},${y(lows[i])}`).reverse());
  plot.append(svg("polygon", { points: band.join(" "), class: "rating-band" }));
  for (const r of [lo + 40, hi - 40].filter((v, i, a) => a.indexOf(v) === i)) {
    plot.append(svg("line", { x1: L, x2: W - R, y1: y(r), y2: y(r), class: "rating-grid" }),
      svg("text", { x: L - 4, y: y(r) + 4, "text-anchor": "end", class: "rating-axis" }, String(Math.round(r))));
  }
  plot.append(svg("polyline", { points: points.map((p, i) => `${x(i)},${y(p.rating)}`).join(" "), class: "rating-line", "data-testid": "rating-line" }));
  points.forEach((p, i) => {
    const dot = svg("circle", { cx: x(i), cy: y(p.rating), r: 3.5, class: "rating-dot", "data-testid": "rating-point" });
    dot.append(svg("title", {}, i === 0 ? "start: 1500?" : `after game ${i}: ${p.shown} (± ${Math.round(p.rd)})`));
    plot.append(dot);
  });
  plot.append(svg("text", { x: L, y: H - 6, class: "rating-axis" }, "start"),
    svg("text", { x: W - R, y: H - 6, "text-anchor": "end", class: "rating-axis" }, `${entry.history.length} rated game${entry.history.length === 1 ? "" : "s"}`));
  return plot;
}

function ratingsCard(ratings) {
  return el("section", { class: "card rating-history", "data-testid": "rating-history" }, el("h2", {}, "Ratings"),
    ratings.length
      ? ratings.map((r) => el("div", { class: "rating-game", "data-testid": `rating-${r.game}` },
        el("h3", {}, r.title, " ", el("a", { href: `/ratings/${r.game}`, title: "leaderboard" }, el("span", { "data-testid": `rating-now-${r.game}` }, r.shown))),
        el("p", { class: "muted" }, `Glicko-2 ${r.rating} ± ${r.rd}${r.provisional ? " (provisional: ? until the deviation falls below 150)" : ""}`),
        ratingPlot(r)))
      : el("p", { class: "muted", "data-testid": "no-ratings" }, "No rated games yet."));
}

function ratingChange(g) {
  if (g.rating_change === null || g.rating_change === undefined) return g.rated ? el("span", { class: "tag" }, " rated") : null;
  const up = g.rating_change >= 0;
  return el("span", { class: `rating-change ${up ? "up" : "down"}`, "data-testid": `rating-change-${g.id}` },
    ` ${up ? "+" : "−"}${Math.abs(g.rating_change).toFixed(1)} → ${g.rating_after}`);
}

// /players/NAME: ratings with their history plotted, recent games with results (and rating
// changes), replays and records.
export async function playerPage(main, where, name) {
  where.textContent = `player ${name}`;
  let data;
  try { data = await api(`/api/players/${encodeURIComponent(name)}`); } catch (error) {
    errorPage(main, "No such player", error.message);
    return;
  }
  document.title = `monsterball — ${data.name}`;
  main.replaceChildren(el("div", { class: "player-page", "data-testid": "player-page" },
    el("h2", { "data-testid": "player-name" }, data.name, data.locked ? el("span", { class: "tag" }, " (locked)") : null),
    ratingsCard(data.ratings),
    el("section", { class: "card" }, el("h2", {}, "Recent games"),
      data.games.length ? el("div", { class: "table-scroll" }, el("table", { class: "games", "data-testid": "player-games" },
        el("tr", {}, el("th", {}, "game"), el("th", {}, "seat"), el("th", {}, "against"), el("th", {}, "moves"), el("th", {}, "result"), el("th", {})),
        data.games.map((g) => el("tr", { "data-testid": `player-game-${g.id}` }, el("td", {}, g.title), el("td", {}, g.seat),
          el("td", {}, g.opponents.join(", ")), el("td", {}, g.moves), el("td", {}, g.status === "playing" ? "being played" : g.result, ratingChange(g)),
          el("td", {}, el("a", { href: g.url }, g.status === "playing" ? "watch" : "replay"),
            g.record ? [" · ", el("a", { href: g.record, download: "", "data-testid": `record-${g.id}` }, "record")] : null)))))
        : el("p", { class: "muted", "data-testid": "no-player-games" }, "No games yet."))));
}
