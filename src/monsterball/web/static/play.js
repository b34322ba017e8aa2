// The game page: a seat's (or a spectator's) live view. This module holds the page's view
// model and draws it; connection.js keeps the socket, game-state.js decides what clicks and
// logs mean, game-view.js and panels.js draw the cards, board.js and animation.js the field.
import { chatPanel, dropMessage, whoAmI } from "./social.js";
import { syncClock, tickClocks } from "./clocks.js";
import { connectGame } from "./connection.js";
import {
  bannerText,
  cellClick,
  lastMoveCells,
  lastMoveSpaces,
  mergeMoves,
  scoringBoard,
  scoringEntry,
} from "./game-state.js";
import { endPanel as endCard } from "./game-view.js";
import { renderGame, yourSeat, yourTeam } from "./game-layout.js";
import { rematchControl } from "./rematch.js";
import { takebackControl } from "./takeback.js";
import { drawControl } from "./draw.js";
import { abandonControl } from "./abandon.js";
import { remember } from "./seats.js";
import { beep, pageKeys } from "./page-controls.js";
import { api, el, errorPage, seatToken } from "./util.js";

export { lastMoveCells }; // replay.js outlines the last move with it

const HOLD_MS = 1800; // a scoring position stays on screen this long before the line-up

export function playPage(main, where, connection, gameId) {
  const token = seatToken();
  // Another seat's link opened over this one changes only the fragment: load it afresh.
  window.addEventListener("hashchange", () => {
    if (seatToken() !== token) location.reload();
  });
  const page = {
    state: null,
    drawn: null, // the board last drawn, to animate from
    outlined: new Set(), // the last move's spaces
    selected: null,
    pending: null, // the ply a sent move was based on, until the server answers
    errorText: "",
    notice: "",
    choices: null, // {kind: "choose", options} or {kind: "stack", pieces, cell, pick}
    confirming: null, // a move waiting for "Play it" (confirm moves)
    resigning: false,
    online: false,
    everOnline: false,
    fatal: false,
    moves: [],
    viewing: null, // {step, data}: a past position shown from the replay API
    held: null, // {board, until}: a scoring position kept on screen before the reset
    banner: null,
    wasMine: false,
    textOpen: false,
    seenDice: new Set(),
    odds: null, // Huck + Monster: catch odds of each target while aiming
    outcomes: null, // Midway: odds of the decisions that roll next
    roster: null, // Midway: the draft chart and each drafted player's type
    draftSort: { key: "points", down: false },
    people: { names: {}, ratings: {}, presence: null },
    ratingsAfter: false,
    rematch: null,
    takeback: null,
    draw: null,
    abandon: null,
    flipped: null, // null: automatic (seat B sees its end at the bottom)
    settings: {
      sound: localStorage.getItem("monsterball-sound") === "on",
      odds: localStorage.getItem("monsterball-odds") !== "off",
      confirm: localStorage.getItem("monsterball-confirm") === "on",
    },
  };
  page.takeback = takebackControl({ gameId, token, onChange: () => page.state && render() });
  page.draw = drawControl({ gameId, token, onChange: () => page.state && render() });
  page.abandon = abandonControl({
    ...{ gameId, token, current: () => page.state, onChange: () => page.state && render() },
  });
  let drawQueued = false;
  let chat = null;

  function setConnection(text, kind) {
    connection.textContent = text;
    connection.dataset.state = kind;
    connection.setAttribute("data-testid", "connection");
  }

  function fail(title, message) {
    page.fatal = true;
    socket.stop();
    setConnection("not connected", "failed");
    document.title = "monsterball — error";
    errorPage(main, title, message);
  }

  const socket = connectGame(gameId, token, {
    current: () => page.state,
    onState: receive,
    onStatus(status, detail) {
      if (status === "failed") return fail("This game cannot be opened", detail);
      page.online = false;
      if (status === "offline")
        setConnection(`disconnected — reconnecting in ${detail} s…`, "offline");
      else setConnection(status === "reconnecting" ? "reconnecting…" : "connecting…", "connecting");
      if (page.state) render();
    },
    onMessage(message) {
      if (message.type === "chat") chat?.receive(message);
      else if (message.type === "chat-deleted") dropMessage(message.id);
      else if (message.type === "rematch") page.rematch?.receive(message);
      else if (message.type === "takeback") page.takeback.receive(message);
      else if (message.type === "draw") page.draw.receive(message);
      else if (message.type === "speed" && page.state) {
        page.state = { ...page.state, game: { ...page.state.game, speed: message.speed } };
        render();
      } else if (message.type === "error") {
        if (message.error === "bad-token" || message.error === "not-found") {
          fail(
            message.error === "not-found" ? "No such game" : "This seat link is not valid",
            message.message,
          );
          return;
        }
        page.pending = null;
        page.errorText =
          message.error === "too-many"
            ? `too many moves at once: ${message.message}`
            : message.message;
        render();
      }
    },
  });

  function receive(message) {
    const before = page.state;
    if (!page.online && page.everOnline) {
      page.notice =
        page.pending !== null && message.game.ply === page.pending
          ? "Reconnected. Your last move did not reach the server: make it again."
          : "Reconnected: this is the current position.";
    }
    page.online = page.everOnline = true;
    setConnection("connected", "connected");
    const moved = !before || message.game.ply !== before.game.ply;
    if (moved) Object.assign(page, { selected: null, choices: null, confirming: null });
    if (before && moved) page.errorText = "";
    const fresh = before ? message.log.filter((e) => e.ply > before.game.ply) : [];
    if (before && moved && !page.viewing) {
      page.outlined = lastMoveSpaces(page.drawn || before.board, message.board, message.log);
      // A banner stays its 2.5 s however many moves follow (a paced bot game: 0.2 s apart).
      const banner = bannerText(fresh);
      if (banner) {
        const shown = { text: banner };
        page.banner = shown;
        setTimeout(() => {
          if (page.banner === shown) page.banner = null;
          render();
        }, 2500);
      }
    }
    page.state = message;
    if (!before) firstState(message);
    else if (message.game.status === "finished" && before.game.status !== "finished")
      page.rematch.load();
    syncClock(message);
    page.pending = null;
    if (before && message.game.ply < before.game.ply)
      page.moves = page.moves.filter((m) => m.ply <= message.game.ply); // a move taken back
    const merged = mergeMoves(page.moves, message.log);
    page.moves = merged.moves;
    if (merged.reload) loadMoves();
    if (before && moved && !page.viewing) holdScore(fresh);
    const hooks = message.game.hooks;
    if (hooks.roster) loadRoster();
    if (hooks.odds && message.legal.some((l) => l.a.startsWith("throw ")))
      load("odds", `/api/games/${gameId}/odds`, message.game.ply);
    if (
      hooks.priced.length &&
      token &&
      message.legal.some((l) => hooks.priced.includes(l.a.split(" ")[0]))
    ) {
      load("outcomes", `/api/games/${gameId}/outcomes`, message.game.ply);
    }
    const mine = message.legal.length > 0;
    if (mine && !page.wasMine && page.settings.sound && before) beep();
    page.wasMine = mine;
    drawSoon();
  }

  function firstState(message) {
    if (token && message.you)
      remember(gameId, [{ name: message.you, url: location.pathname + location.hash }]);
    const humans = message.chairs.filter((c) => c.kind === "human").length;
    page.rematch = rematchControl({ gameId, token, you: message.you, humans, onChange: render });
    if (message.game.status === "finished") page.rematch.load();
  }

  // A point scored: the position after the scoring move stays on screen a moment (the server
  // has already lined the next point up), with its banner.
  async function holdScore(fresh) {
    const scored = scoringEntry(fresh);
    const step = scored ? page.moves.findIndex((m) => m.ply === scored.ply) + 1 : 0;
    if (!scored || !step) return;
    try {
      // The move that scores also lines the next point up: the position it was made from,
      // with the scoring run or catch applied, is the one to show.
      const at = await api(`/api/games/${gameId}/replay?step=${step - 1}`);
      page.held = { board: scoringBoard(at.board, scored), until: Date.now() + HOLD_MS };
      render();
      setTimeout(() => {
        page.held = null;
        render();
      }, HOLD_MS);
    } catch {
      /* the line-up is shown at once */
    }
  }

  // Moves can arrive faster than a screen redraws (two bots at full speed): they are drawn at
  // most once a frame, or four times a second in a hidden tab, where frames do not run.
  function drawSoon() {
    if (drawQueued) return;
    drawQueued = true;
    const draw = () => {
      drawQueued = false;
      render();
    };
    if (document.visibilityState === "visible") requestAnimationFrame(draw);
    else setTimeout(draw, 250);
  }

  async function loadMoves() {
    try {
      page.moves = (await api(`/api/games/${gameId}/moves`, { token })).moves;
      if (page.state) render();
    } catch {
      /* the live log still shows the latest moves */
    }
  }

  async function load(what, path, ply) {
    try {
      const answer = await api(path, { token });
      if (answer.ply === ply) {
        page[what] = answer;
        render();
      }
    } catch {
      page[what] = null;
    }
  }

  async function loadRoster() {
    const roster = page.roster;
    if (roster && !roster.drafting && Object.keys(roster.players).length >= 20) return;
    try {
      page.roster = await api(`/api/games/${gameId}/roster`);
      render();
    } catch {
      /* the text view has it */
    }
  }

  function playerLabel(action) {
    const who = /^([A-Z]\d+)\b/.exec(action);
    const kind = who && page.roster && page.roster.players[who[1]];
    if (!kind) return action;
    const row = page.roster.types.find((t) => t.type === kind);
    return `${action} — ${kind}${row ? ` (size ${row.size}, move ${row.mv})` : ""}`;
  }

  function send(action, confirmed = false) {
    const { state } = page;
    if (!state || page.pending !== null || page.viewing) return;
    page.errorText = page.notice = "";
    if (page.settings.confirm && !confirmed) {
      page.confirming = action;
      page.choices = null;
      render();
      return;
    }
    page.confirming = null;
    page.pending = state.game.ply;
    page.choices = null;
    if (!page.online || !socket.send({ type: "act", action, ply: state.game.ply })) {
      page.pending = null;
      page.errorText = "Not connected: the move was not sent. The page reconnects by itself.";
    }
    render();
  }

  function onCell(cell, chosen = null) {
    const { state } = page;
    if (!state || page.pending !== null || !page.online || page.viewing) return;
    page.errorText = page.notice = "";
    const click = cellClick(
      { legal: state.legal, pieces: state.board.pieces, selected: page.selected },
      cell,
      chosen,
    );
    page.choices = null;
    if (click.kind === "send") return send(click.action);
    if (click.kind === "choose") page.choices = click;
    else if (click.kind === "stack")
      page.choices = { ...click, cell, pick: (id) => onCell(cell, id) };
    else if (click.kind === "select") page.selected = click.piece;
    render();
  }

  async function viewStep(step) {
    if (step < 0) return;
    if (step >= page.moves.length) {
      page.viewing = null;
      render();
      return;
    }
    try {
      page.viewing = { step, data: await api(`/api/games/${gameId}/replay?step=${step}`) };
    } catch (error) {
      page.errorText = error.message;
    }
    render();
  }

  async function resign() {
    page.resigning = false;
    try {
      await api(`/api/games/${gameId}/resign`, { method: "POST", body: { token } });
    } catch (error) {
      page.errorText = error.message;
    }
    render();
  }

  function flipped() {
    return page.flipped === null
      ? yourSeat(page.state) === 1 && page.state.game.mode !== "hotseat"
      : page.flipped;
  }

  function endPanel() {
    if (chat) chat.over();
    if (!page.ratingsAfter && Object.keys(page.people.ratings).length) {
      // The ratings are settled just after the end is told: ask again a moment later.
      page.ratingsAfter = true;
      setTimeout(
        () =>
          api(`/api/games/${gameId}/players`)
            .then((found) => {
              page.people.ratings = found.ratings || {};
              render();
            })
            .catch(() => {}),
        1500,
      );
    }
    return endCard(page.state, yourTeam(page.state), gameId, page.rematch.node());
  }

  function render() {
    renderGame(page, main, where, {
      ...{ onCell, send, viewStep, resign, flipped, endPanel, render, playerLabel, gameId, token },
      setSpeed: (speed) => socket.send({ type: "speed", speed }),
    });
  }

  async function pollPresence() {
    if (page.fatal) return;
    if (page.online && document.visibilityState === "visible") {
      try {
        const now = await api(`/api/games/${gameId}/presence`);
        if (JSON.stringify(now) !== JSON.stringify(page.people.presence)) {
          page.people.presence = now;
          render();
        }
      } catch {
        /* shown again at the next poll */
      }
    }
    setTimeout(pollPresence, 4000);
  }

  main.replaceChildren(el("p", { "data-testid": "connecting" }, "Connecting…"));
  // The chat lives beside the page (below it), so redrawing the game keeps what is typed.
  whoAmI().then((me) => {
    // A logged-in player's seat is kept in the account: its session resumes it without the link.
    const claimed =
      me && token
        ? api(`/api/games/${gameId}/claim`, { method: "POST", body: { token } }).catch(() => {})
        : Promise.resolve();
    claimed
      .then(() => api(`/api/games/${gameId}/players`))
      .then((found) => {
        page.people.names = found.players;
        page.people.ratings = found.ratings || {};
        if (page.state) render();
      })
      .catch(() => {});
    chat = chatPanel(gameId, token, me);
    if (page.state && page.state.game.status === "finished") chat.over();
    main.after(el("div", { class: "chat-dock" }, chat.node));
  });
  pageKeys({
    step: (by) => viewStep((page.viewing ? page.viewing.step : page.moves.length) + by),
    live: () => {
      page.viewing = null;
      render();
    },
  });
  setInterval(() => tickClocks(main), 200);
  setTimeout(pollPresence, 300);
  loadMoves();
}
