// The game page: a seat's (or a spectator's) live view. This module holds the page's view
// model and its controller; connection.js keeps the socket, play-loaders.js what the page asks
// the API for, steps.js plays a reply step by step, game-state.js decides what clicks and logs
// mean, game-layout.js and the modules it uses draw it all.
import { chatPanel, dropMessage, whoAmI } from "./social.js";
import { syncClock, tickClocks } from "./clocks.js";
import { connectGame } from "./connection.js";
import { cellClick, lastMoveCells, mergeMoves } from "./game-state.js";
import { endPanel as endCard } from "./game-view.js";
import { renderGame, yourSeat, yourTeam } from "./game-layout.js";
import { playLoaders } from "./play-loaders.js";
import { rematchControl } from "./rematch.js";
import { takebackControl } from "./takeback.js";
import { drawControl } from "./draw.js";
import { abandonControl } from "./abandon.js";
import { remember } from "./seats.js";
import { beep, pageKeys } from "./page-controls.js";
import { announce, replySteps, showStep } from "./reply-steps.js";
import { stepQueue } from "./steps.js";
import { api, el, errorPage, seatToken } from "./util.js";

export { lastMoveCells }; // replay.js outlines the last move with it

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
    banner: null,
    announced: 0, // the step whose banners were last shown
    drawnStep: 0, // the step of the board last drawn (the live one, or a reply's step)
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
      steps: localStorage.getItem("monsterball-steps") !== "off",
    },
  };
  page.steps = stepQueue((frame) => showStep(page, frame, render));
  const loaders = playLoaders(page, { gameId, token, render });
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
    page.state = message;
    if (!before) firstState(message);
    else if (message.game.status === "finished" && before.game.status !== "finished")
      page.rematch.load();
    if (before && moved && !page.viewing) replySteps(page, loaders.board, before, message);
    syncClock(message);
    page.pending = null;
    if (before && message.game.ply < before.game.ply) {
      page.moves = page.moves.filter((m) => m.ply <= message.game.ply); // a move taken back
      page.announced = page.drawnStep = message.game.ply;
    }
    const merged = mergeMoves(page.moves, message.log);
    page.moves = merged.moves;
    if (merged.reload) loaders.moves();
    loaders.forState(message);
    const mine = message.legal.length > 0;
    if (mine && !page.wasMine && page.settings.sound && before) beep();
    page.wasMine = mine;
    drawSoon();
  }

  function firstState(message) {
    page.announced = page.drawnStep = message.game.ply;
    if (token && message.you)
      remember(gameId, [{ name: message.you, url: location.pathname + location.hash }]);
    const humans = message.chairs.filter((c) => c.kind === "human").length;
    page.rematch = rematchControl({ gameId, token, you: message.you, humans, onChange: render });
    if (message.game.status === "finished") page.rematch.load();
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
    if (page.steps.current()) return page.steps.skip(); // a click on a reply's step: the live game
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
    loaders.ratingsAfterEnd();
    return endCard(page.state, yourTeam(page.state), gameId, page.rematch.node());
  }

  // Draws the page; returns how long the field's animation runs (ms), for the steps' pace.
  function render() {
    if (!page.state) return 0;
    const frame = page.viewing ? null : page.steps.current();
    if (page.viewing) page.announced = Math.max(page.announced, page.state.game.ply);
    else announce(page, frame ? frame.step : page.state.game.ply, render);
    return renderGame(page, main, where, {
      ...{ onCell, send, viewStep, resign, flipped, endPanel, render, playerLabel, gameId, token },
      ...{
        frame,
        skipSteps: () => page.steps.skip(),
        setSpeed: (speed) => socket.send({ type: "speed", speed }),
      },
    });
  }

  main.replaceChildren(el("p", { "data-testid": "connecting" }, "Connecting…"));
  // The chat lives beside the page (below it), so redrawing the game keeps what is typed.
  whoAmI().then((me) => {
    // A logged-in player's seat is kept in the account: its session resumes it without the link.
    loaders.people(me);
    chat = chatPanel(gameId, token, me);
    if (page.state && page.state.game.status === "finished") chat.over();
    main.after(el("div", { class: "chat-dock" }, chat.node));
  });
  pageKeys({
    step: (by) => viewStep((page.viewing ? page.viewing.step : page.moves.length) + by),
    live: () => {
      page.viewing = null;
      page.steps.skip();
      render();
    },
  });
  setInterval(() => tickClocks(main), 200);
  setTimeout(loaders.presence, 300);
  loaders.moves();
}
