// Accounts, challenges, chat and player pages (docs/web.md). Every text a person typed (names,
// chat) is put in the page as a text node by el(), never parsed as HTML.
import { api, el } from "./util.js";
import { lobbyOffer } from "./rematch.js";
import { chatForm, chatLine, dropMessage } from "./chat-panel.js";
import { accountCard } from "./account.js";
import { challengeControls } from "./challenge-controls.js";
import { scrollTable, tableRow } from "./tables.js";
import { clockText } from "./time-controls.js";
export { accountCorner, whoAmI } from "./account.js";
export { playerPage, ratingPlot } from "./player-page.js";
export { chatPanel, dropMessage } from "./chat-panel.js";

function yourGames(games, titles) {
  if (!games.length)
    return el(
      "p",
      { class: "muted", "data-testid": "no-your-games" },
      "None yet: post or take a challenge.",
    );
  return scrollTable(
    { "data-testid": "your-games" },
    ["game", "seat", "moves", "result", ""],
    games.map((g) =>
      tableRow({}, [
        titles[g.game] || g.game,
        g.seat,
        g.moves,
        g.result,
        el(
          "a",
          { href: g.url, "data-testid": `your-game-${g.id}` },
          g.status === "playing" ? "resume" : "replay",
        ),
      ]),
    ),
  );
}

function challengeRow(c, run) {
  const act = c.mine
    ? el(
        "button",
        {
          type: "button",
          "data-testid": `withdraw-${c.id}`,
          onclick: () => run(api(`/api/challenges/${c.id}`, { method: "DELETE" })),
        },
        "withdraw",
      )
    : el(
        "button",
        {
          type: "button",
          class: "primary",
          "data-testid": `accept-${c.id}`,
          onclick: () =>
            run(
              api(`/api/challenges/${c.id}/accept`, { method: "POST" }).then((g) => {
                location.href = g.url;
              }),
            ),
        },
        "accept",
      );
  return tableRow({ "data-testid": "challenge" }, [
    [
      el("a", { href: `/players/${encodeURIComponent(c.by)}` }, c.by),
      el(
        "span",
        {
          class: "muted",
          "data-testid": "challenge-rating",
          title: "rating in this game (? while provisional)",
        },
        ` (${c.rating_shown})`,
      ),
    ],
    [c.title, c.preset ? el("span", { class: "tag" }, ` ${c.preset}`) : null],
    clockText(c.clock),
    [c.rated ? "rated" : "casual", c.seat ? ` · plays ${c.seat}` : ""],
    act,
  ]);
}

// The lobby's people: sign-up/log-in, your games, open challenges, quick pairing, lobby chat.
export async function lobbySocial(me, catalog, titles) {
  const box = el("div", { class: "social" });
  const list = el("div", { "data-testid": "challenges" });
  const message = el("p", { class: "error", role: "alert", "data-testid": "challenge-error" });
  const relations = me
    ? await api("/api/relations").catch(() => ({ mute: [], block: [] }))
    : { mute: [], block: [] };
  const hidden = new Set([...relations.mute, ...relations.block]);

  async function showChallenges() {
    const { challenges } = await api("/api/challenges");
    list.replaceChildren(
      challenges.length
        ? scrollTable(
            {},
            ["by", "game", "clock", "", ""],
            challenges.map((c) => challengeRow(c, run)),
          )
        : el("p", { class: "muted", "data-testid": "no-challenges" }, "No open challenges."),
    );
  }
  async function run(promise) {
    message.textContent = "";
    try {
      await promise;
      await showChallenges();
    } catch (error) {
      message.textContent = error.message;
    }
  }

  const controls = me
    ? challengeControls(catalog, titles, run, message)
    : el(
        "p",
        { class: "muted" },
        "Log in to post a challenge or to pair quickly; anyone may accept a casual challenge.",
      );

  const chatLog = el("ol", { class: "chat-log", "data-testid": "lobby-chat-log" });
  const addChat = (m) => {
    if (!hidden.has(m.author)) {
      chatLog.append(chatLine(m, me, hidden));
      chatLog.scrollTop = chatLog.scrollHeight;
    }
  };
  const chatCard = el(
    "div",
    { class: "card" },
    el("h2", {}, "Lobby chat"),
    chatLog,
    me
      ? chatForm((text) => api("/api/lobby/chat", { method: "POST", body: { text } }), "lobby-chat")
      : el("p", { class: "muted" }, "Log in to chat."),
  );

  const mine = me ? (await api("/api/my/games")).games : [];
  box.append(
    accountCard(me) ||
      el("div", { class: "card" }, el("h2", {}, "Your games"), yourGames(mine, titles)),
    el("div", { class: "card" }, el("h2", {}, "Open challenges"), list, controls, message),
    chatCard,
  );
  await showChallenges();
  (await api("/api/lobby/chat")).messages.forEach(addChat);
  lobbySocket({
    challenges: () => showChallenges().catch(() => {}),
    started: (m) => {
      location.href = m.url;
    },
    "rematch-offer": (m) => box.prepend(lobbyOffer(m)),
    chat: (m) => addChat(m.message),
    "chat-deleted": (m) => dropMessage(m.id),
  });
  return box;
}

function lobbySocket(handlers) {
  const socket = new WebSocket(
    `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws-lobby`,
  );
  socket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    const handler = handlers[message.type];
    if (handler) handler(message);
  };
  socket.onclose = () => setTimeout(() => lobbySocket(handlers), 3000);
}
