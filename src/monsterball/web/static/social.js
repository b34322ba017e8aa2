// Accounts, challenges, chat and player pages (docs/web.md). Every text a person typed (names,
// chat) is put in the page as a text node by el(), never parsed as HTML.
import { api, el } from "./util.js";
import { lobbyOffer } from "./rematch.js";
import { chatForm, chatLine, dropMessage } from "./chat-panel.js";
import { accountCard } from "./account.js";
export { accountCorner, whoAmI } from "./account.js";
export { playerPage, ratingPlot } from "./player-page.js";
export { chatPanel, dropMessage } from "./chat-panel.js";

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
  return clock.kind === "realtime"
    ? `${clock.minutes} min + ${clock.increment} s`
    : `${clock.days} day${clock.days === 1 ? "" : "s"} a move`;
}

function yourGames(games, titles) {
  if (!games.length)
    return el(
      "p",
      { class: "muted", "data-testid": "no-your-games" },
      "None yet: post or take a challenge.",
    );
  return el(
    "div",
    { class: "table-scroll" },
    el(
      "table",
      { class: "games", "data-testid": "your-games" },
      el(
        "tr",
        {},
        el("th", {}, "game"),
        el("th", {}, "seat"),
        el("th", {}, "moves"),
        el("th", {}, "result"),
        el("th", {}),
      ),
      games.map((g) =>
        el(
          "tr",
          {},
          el("td", {}, titles[g.game] || g.game),
          el("td", {}, g.seat),
          el("td", {}, g.moves),
          el("td", {}, g.result),
          el(
            "td",
            {},
            el(
              "a",
              { href: g.url, "data-testid": `your-game-${g.id}` },
              g.status === "playing" ? "resume" : "replay",
            ),
          ),
        ),
      ),
    ),
  );
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
    if (!challenges.length) {
      list.replaceChildren(
        el("p", { class: "muted", "data-testid": "no-challenges" }, "No open challenges."),
      );
      return;
    }
    list.replaceChildren(
      el(
        "div",
        { class: "table-scroll" },
        el(
          "table",
          { class: "games" },
          el(
            "tr",
            {},
            el("th", {}, "by"),
            el("th", {}, "game"),
            el("th", {}, "clock"),
            el("th", {}, ""),
            el("th", {}),
          ),
          challenges.map((c) => {
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
            return el(
              "tr",
              { "data-testid": "challenge" },
              el(
                "td",
                {},
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
              ),
              el("td", {}, c.title, c.preset ? el("span", { class: "tag" }, ` ${c.preset}`) : null),
              el("td", {}, clockText(c.clock)),
              el("td", {}, c.rated ? "rated" : "casual", c.seat ? ` · plays ${c.seat}` : ""),
              el("td", {}, act),
            );
          }),
        ),
      ),
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

  const gameSelect = el(
    "select",
    { "data-testid": "challenge-game", "aria-label": "game" },
    catalog.games.map((g) => el("option", { value: g.id }, g.title)),
  );
  const clockSelect = el(
    "select",
    { "data-testid": "challenge-clock", "aria-label": "clock" },
    CLOCKS.map(([v, label]) => el("option", { value: v }, label)),
  );
  const rated = el("input", { type: "checkbox", "data-testid": "challenge-rated" });
  const seatSelect = el(
    "select",
    { "data-testid": "challenge-seat", "aria-label": "your seat" },
    el("option", { value: "" }, "random side"),
    el("option", { value: "A" }, "I play A"),
    el("option", { value: "B" }, "I play B"),
  );
  const clock = () => CLOCKS.find(([v]) => v === clockSelect.value)[2];
  const waiting = el("span", { class: "muted", "data-testid": "pairing" });
  const post = el(
    "button",
    { type: "button", class: "primary", "data-testid": "post-challenge" },
    "Post challenge",
  );
  post.onclick = () =>
    run(
      api("/api/challenges", {
        method: "POST",
        body: {
          game: gameSelect.value,
          clock: clock(),
          rated: rated.checked,
          seat: seatSelect.value || null,
        },
      }),
    );
  const quick = el(
    "button",
    {
      type: "button",
      "data-testid": "quick-pair",
      title: "play the next player who asks for this game and clock, of close rating",
    },
    "Quick pair",
  );
  quick.onclick = async () => {
    message.textContent = "";
    try {
      const answer = await api("/api/pairing", {
        method: "POST",
        body: { game: gameSelect.value, clock: clock(), rated: rated.checked },
      });
      if (answer.status === "started") location.href = answer.url;
      else
        waiting.textContent = `waiting for an opponent (${titles[gameSelect.value]}, ${clockText(clock())})…`;
    } catch (error) {
      message.textContent = error.message;
    }
  };
  const controls = me
    ? el(
        "div",
        { class: "row" },
        gameSelect,
        clockSelect,
        seatSelect,
        el("label", { class: "inline" }, rated, " rated"),
        post,
        quick,
        waiting,
      )
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
