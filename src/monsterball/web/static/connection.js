// The game page's socket: seating by the token's first message, deltas applied in order (a
// whole state asked for when one does not fit), reconnection with a growing pause.
import { applyDelta } from "./delta.js";
import { contributeDice } from "./dice.js";

/**
 * @typedef {{
 *   onState: (state: any) => void,
 *   onMessage: (message: any) => void,
 *   onStatus: (status: "connecting" | "reconnecting" | "offline" | "failed", detail: string) => void,
 *   current: () => any,
 * }} Listener
 */

/**
 * Open the game's socket and keep it open.
 * @param {string} gameId
 * @param {string | null} token the seat's token (null: a spectator)
 * @param {Listener} listener
 */
export function connectGame(gameId, token, listener) {
  /** @type {WebSocket | null} */
  let socket = null;
  let retry = 500;
  let everConnected = false;
  let stopped = false;

  function open() {
    // deltas=1: after the first state, the server sends what changed (docs/web.md).
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}/ws/${gameId}?deltas=1`);
    socket = ws;
    let resyncing = false; // a whole state was asked for after a delta that did not fit
    // The token goes in the first message, not the URL; until the seat's own state arrives,
    // the spectators' state the server greets every socket with is not shown.
    let seated = !token;
    ws.onopen = () => {
      if (token) ws.send(JSON.stringify({ type: "seat", token }));
    };
    listener.onStatus(everConnected ? "reconnecting" : "connecting", "");
    ws.onclose = (event) => {
      if (stopped) return;
      if (event.code === 4404 || event.code === 4403) {
        stopped = true;
        listener.onStatus("failed", event.reason || "the link is not valid");
        return;
      }
      listener.onStatus("offline", `${Math.round(retry / 1000)}`);
      setTimeout(open, retry);
      retry = Math.min(retry * 2, 4000);
    };
    ws.onmessage = (event) => {
      const message = JSON.parse(event.data);
      if (message.type === "state") {
        if (!seated && !message.you) return;
        seated = true;
        resyncing = false;
        contributeDice(ws, message); // this seat's nonce for the fair dice (sec, issue 31)
        arrived(message);
      } else if (message.type === "delta") {
        const state = listener.current();
        if (!seated || resyncing || (state && message.ply <= state.game.ply)) return;
        if (!state || message.from !== state.game.ply) {
          resyncing = true;
          ws.send(JSON.stringify({ type: "state" }));
          return;
        }
        const next = applyDelta(state, message.ops);
        if (typeof message.server_ms === "number") next.server_ms = message.server_ms; // clocks sync to it
        arrived(next);
      } else {
        listener.onMessage(message);
      }
    };
  }

  /** @param {any} state */
  function arrived(state) {
    everConnected = true;
    retry = 500;
    listener.onState(state);
  }

  open();
  return {
    /** Send a message; false if the socket is not open (nothing was sent). */
    send(/** @type {object} */ message) {
      if (!socket || socket.readyState !== WebSocket.OPEN) return false;
      socket.send(JSON.stringify(message));
      return true;
    },
    stop() {
      stopped = true;
      if (socket) socket.close();
    },
  };
}
