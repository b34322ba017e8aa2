// Chat: the lobby's and each game's channel (docs/web.md, "Chat and moderation"). Every text a
// person typed is put in the page as a text node by el(), never parsed as HTML.
import { api, el } from "./util.js";

export function chatForm(send, testid) {
  const input = el("input", {
    maxlength: 500,
    placeholder: "say something (text only)",
    "data-testid": `${testid}-input`,
    "aria-label": "chat message",
  });
  const error = el("p", { class: "error", role: "alert" });
  return el(
    "form",
    {
      class: "chat-form",
      onsubmit: async (event) => {
        event.preventDefault();
        if (!input.value.trim()) return;
        error.textContent = "";
        try {
          await send(input.value);
          input.value = "";
        } catch (e) {
          error.textContent = e.message;
        }
      },
    },
    input,
    el("button", { type: "submit", "data-testid": `${testid}-send` }, "send"),
    error,
  );
}

// A message a moderator deleted (`monsterball admin delete-message`) leaves every open page.
export function dropMessage(id) {
  for (const node of document.querySelectorAll(
    `[data-testid=chat-message][data-id="${Number(id)}"]`,
  ))
    node.remove();
}

// One message: the author, the text (a text node, whatever it holds), and for other
// accounts' messages mute, block and report.
export function chatLine(m, me, hidden) {
  const tools = [];
  if (m.account && me && m.author !== me) {
    const relate = (kind) => async () => {
      await api("/api/relations", { method: "POST", body: { name: m.author, kind } });
      hidden.add(m.author);
      for (const node of document.querySelectorAll(`[data-author="${CSS.escape(m.author)}"]`))
        node.remove();
    };
    tools.push(
      el(
        "button",
        {
          type: "button",
          class: "link",
          title: "hide this player's messages from me",
          onclick: relate("mute"),
        },
        "mute",
      ),
      el(
        "button",
        {
          type: "button",
          class: "link",
          title: "mute, and refuse this player's challenges and chat",
          onclick: relate("block"),
        },
        "block",
      ),
    );
  }
  const report = el(
    "button",
    {
      type: "button",
      class: "link",
      "data-testid": `report-${m.id}`,
      title: "send this message to the moderators",
    },
    "report",
  );
  report.onclick = async () => {
    try {
      await api(`/api/chat/${m.id}/report`, { method: "POST" });
      report.textContent = "reported";
      report.disabled = true;
    } catch (e) {
      report.textContent = e.message;
    }
  };
  tools.push(report);
  return el(
    "li",
    { "data-testid": "chat-message", "data-author": m.author, "data-id": m.id },
    el("strong", { class: "chat-author" }, m.author),
    " ",
    el("span", { class: "chat-text", "data-testid": "chat-text" }, m.text),
    el("span", { class: "chat-tools" }, tools),
  );
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
  const form = chatForm(
    (text) => api(`/api/games/${gameId}/chat`, { method: "POST", token, body: { text } }).then(add),
    "game-chat",
  );
  const note = el("p", { class: "muted" });
  const node = el(
    "div",
    { class: "card chat-card", "data-testid": "game-chat" },
    title,
    log,
    form,
    note,
  );
  let channel = null,
    offered = false;
  // Once the game is over, the players may read what the spectators said (hidden during play).
  function over() {
    if (offered || channel !== "players") return;
    offered = true;
    const read = el(
      "button",
      { type: "button", "data-testid": "read-spectators" },
      "Read the spectators' chat",
    );
    read.onclick = async () => {
      read.disabled = true;
      try {
        const answer = await api(`/api/games/${gameId}/chat?channel=spectators`, { token });
        const theirs = el(
          "ol",
          { class: "chat-log", "data-testid": "spectators-chat-log" },
          answer.messages.filter((m) => !hidden.has(m.author)).map((m) => chatLine(m, me, hidden)),
        );
        read.replaceWith(
          el("h3", {}, "Spectators' chat"),
          answer.messages.length
            ? theirs
            : el(
                "p",
                { class: "muted", "data-testid": "spectators-chat-empty" },
                "The spectators said nothing.",
              ),
        );
      } catch (error) {
        read.disabled = false;
        note.textContent = error.message;
      }
    };
    node.append(read);
  }
  const ready = (async () => {
    if (me) {
      const relations = await api("/api/relations").catch(() => ({ mute: [], block: [] }));
      for (const name of [...relations.mute, ...relations.block]) hidden.add(name);
    }
    if (!me && !token) {
      // The spectators' chat is for logged-in spectators while the game is played (a player
      // could read it by opening the page without the cookie): read once it is over.
      title.textContent = "Spectators' chat";
      form.hidden = true;
      note.textContent =
        "Log in to read and join the spectators' chat (everyone may read it once the game is over).";
      return;
    }
    await load();
  })();
  let readAtEnd = null; // an anonymous spectator reads the chat once the game is over
  async function load() {
    try {
      const answer = await api(`/api/games/${gameId}/chat`, { token });
      channel = answer.channel;
      title.textContent = answer.channel === "players" ? "Players' chat" : "Spectators' chat";
      if (answer.channel === "spectators" && !me) {
        form.hidden = true;
        note.textContent = "Log in to chat with the other spectators.";
      }
      answer.messages.forEach(add);
    } catch (error) {
      note.textContent = error.message;
    }
  }
  return {
    node,
    receive: (message) => add(message.message),
    over: () => {
      if (!me && !token && !readAtEnd) readAtEnd = ready.then(load);
      (readAtEnd || ready).then(over);
    },
  };
}
