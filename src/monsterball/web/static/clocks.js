// Game clocks on the board page: the server's figures (each side's time left as of
// `since_ms`, server time), counted down here between messages. Each message carries the
// server's time (`server_ms`), so the display is corrected on every message; the server
// alone decides when a side is out of time.
import { el } from "./util.js";

let offset = 0; // server time minus this browser's, from the last message

export function syncClock(message) {
  if (typeof message.server_ms === "number") offset = message.server_ms - Date.now();
}

function leftNow(clock, side) {
  const running = clock.running === side.side && clock.since_ms !== null;
  const spent = running ? Date.now() + offset - clock.since_ms : 0;
  return Math.max(0, side.left_ms - spent);
}

export function formatLeft(ms, kind) {
  if (kind === "correspondence" || ms >= 3600000) {
    const hours = Math.floor(ms / 3600000);
    const days = Math.floor(hours / 24);
    const minutes = Math.floor((ms % 3600000) / 60000);
    return days ? `${days}d ${hours % 24}h` : `${hours}h ${String(minutes).padStart(2, "0")}m`;
  }
  const seconds = ms / 1000;
  if (seconds < 10) return seconds.toFixed(1);
  const whole = Math.ceil(seconds);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}

// The clocks card (null when the game has none): one face per side, yours marked.
export function clockCard(clock, yourSide, finished) {
  if (!clock) return null;
  const faces = clock.sides.map((side) =>
    el(
      "div",
      {
        class: `clock-face${clock.running === side.side && !finished ? " running" : ""}${side.side === yourSide ? " yours" : ""}`,
        "data-testid": `clock-${side.side}`,
        "data-side": side.side,
      },
      el("span", { class: "clock-side" }, `${side.side}${side.side === yourSide ? " (you)" : ""}`),
      el(
        "span",
        { class: "clock-time", "data-left": "" },
        formatLeft(leftNow(clock, side), clock.control.kind),
      ),
    ),
  );
  const card = el(
    "div",
    { class: "card clocks", "data-testid": "clocks", "aria-label": `clocks: ${clock.describe}` },
    el("div", { class: "clock-faces" }, faces),
    el("p", { class: "muted clock-control" }, clock.describe),
  );
  card.clock = clock;
  return card;
}

// Redraw the running face's time (called a few times a second).
export function tickClocks(root) {
  const card = root.querySelector("[data-testid=clocks]");
  if (!card || !card.clock) return;
  for (const side of card.clock.sides) {
    const face = card.querySelector(`[data-side="${side.side}"] .clock-time`);
    if (!face) continue;
    const ms = leftNow(card.clock, side);
    face.textContent = formatLeft(ms, card.clock.control.kind);
    face.parentElement.classList.toggle(
      "low",
      card.clock.control.kind === "realtime" && ms < 10000,
    );
  }
}
