// The lobby's challenge controls: post a challenge, or quick pair (docs/web.md, "Quick
// pairing"). While it waits the page checks in every few seconds: the server pairs two
// waiting players as soon as their rating windows come to overlap, and keeps a wait only
// while its page checks in. "Stop waiting" withdraws the request.
import { api, el } from "./util.js";
import { clockChoice, clockText } from "./time-controls.js";

const CHECK_IN_MS = 3000;

/**
 * @param {{games: {id: string, title: string}[]}} catalog
 * @param {Record<string, string>} titles
 * @param {(promise: Promise<any>) => Promise<void>} run shows a refusal, then the list again
 * @param {HTMLElement} message where an error is shown
 */
export function challengeControls(catalog, titles, run, message) {
  const gameSelect = el(
    "select",
    { "data-testid": "challenge-game", "aria-label": "game" },
    catalog.games.map((g) => el("option", { value: g.id }, g.title)),
  );
  const clock = clockChoice({ "data-testid": "challenge-clock", "aria-label": "clock" });
  const rated = el("input", { type: "checkbox", "data-testid": "challenge-rated" });
  const seatSelect = el(
    "select",
    { "data-testid": "challenge-seat", "aria-label": "your seat" },
    el("option", { value: "" }, "random side"),
    el("option", { value: "A" }, "I play A"),
    el("option", { value: "B" }, "I play B"),
  );
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
          clock: clock.chosen(),
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
  const stop = el(
    "button",
    { type: "button", "data-testid": "stop-waiting", hidden: true },
    "Stop waiting",
  );
  const waiting = el("span", { class: "muted", role: "status", "data-testid": "pairing" });
  let timer = null;
  let asked = null; // what the wait is for, as the page shows it

  function schedule() {
    clearTimeout(timer);
    timer = setTimeout(checkIn, CHECK_IN_MS);
  }
  function settle(answer) {
    if (answer.status === "started") {
      clearTimeout(timer);
      location.href = answer.url;
    } else if (answer.status === "waiting") {
      const seconds = Math.max(0, Math.round((Date.now() - Date.parse(answer.since)) / 1000));
      waiting.textContent = `Waiting for an opponent (${asked || "quick pair"}) · ${seconds} s`;
      stop.hidden = false;
      quick.disabled = true; // asking again would start the wait (and its window) over
      schedule();
    } else {
      clearTimeout(timer);
      stop.hidden = true;
      quick.disabled = false;
      waiting.textContent = asked
        ? "No longer waiting: nobody came in time. Quick pair waits again."
        : "";
      asked = null;
    }
  }
  async function checkIn() {
    try {
      settle(await api("/api/pairing/check-in", { method: "POST" }));
    } catch (error) {
      message.textContent = error.message;
      schedule(); // a dropped connection: try again (the wait lasts 20 s unchecked)
    }
  }
  quick.onclick = async () => {
    message.textContent = "";
    asked = `${titles[gameSelect.value]}, ${clockText(clock.chosen())}${rated.checked ? ", rated" : ""}`;
    try {
      settle(
        await api("/api/pairing", {
          method: "POST",
          body: { game: gameSelect.value, clock: clock.chosen(), rated: rated.checked },
        }),
      );
    } catch (error) {
      asked = null;
      message.textContent = error.message;
    }
  };
  stop.onclick = async () => {
    clearTimeout(timer);
    asked = null;
    try {
      await api("/api/pairing", { method: "DELETE" });
      stop.hidden = true;
      quick.disabled = false;
      waiting.textContent = "Stopped waiting.";
    } catch (error) {
      message.textContent = error.message;
    }
  };
  // A wait still open (the lobby reloaded within seconds) goes on.
  api("/api/pairing")
    .then((answer) => {
      if (answer.status === "waiting") {
        asked = "quick pair";
        settle(answer);
      }
    })
    .catch(() => {});

  return el(
    "div",
    { class: "row" },
    gameSelect,
    clock.select,
    seatSelect,
    el("label", { class: "inline" }, rated, " rated"),
    post,
    quick,
    stop,
    waiting,
  );
}
