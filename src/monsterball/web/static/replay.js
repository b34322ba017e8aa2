// The replay viewer and the "How to play" pages.
import { drawBoard, legend } from "./board.js";
import { panelRows } from "./panels.js";
import { lastMoveCells } from "./play.js";
import { remember } from "./seats.js";
import { api, el, errorPage, svg } from "./util.js";
export { markdown, rulesPage } from "./rules-page.js";

// Transport icons drawn as SVG (the ⏮ ⏭ glyphs are missing from many fonts).
function icon(kind) {
  const shapes = {
    first: ["M4 3h2v14H4z", "M17 3 7 10l10 7z"],
    back: ["M15 3 5 10l10 7z"],
    forward: ["M5 3l10 7-10 7z"],
    last: ["M14 3h2v14h-2z", "M3 3l10 7-10 7z"],
  }[kind];
  const root = svg("svg", { width: 16, height: 16, viewBox: "0 0 20 20", "aria-hidden": "true" });
  for (const d of shapes) root.append(svg("path", { d, fill: "currentColor" }));
  return root;
}

// Seat A's chances over the game (the heuristic's evaluation), the biggest swings marked.
function chanceGraph(chances, step, go) {
  const W = 600;
  const H = 130;
  const x = (i) => (i / Math.max(1, chances.steps)) * W;
  const y = (c) => (1 - c) * H;
  const root = svg("svg", {
    viewBox: `0 0 ${W} ${H}`,
    class: "chances",
    "data-testid": "chances",
    role: "img",
    "aria-label": "team A's chances over the game; click to go to that step",
  });
  root.append(svg("rect", { x: 0, y: 0, width: W, height: H, class: "chance-bg" }));
  root.append(svg("line", { x1: 0, x2: W, y1: H / 2, y2: H / 2, class: "chance-mid" }));
  const line = chances.points.map(([i, c]) => `${x(i).toFixed(1)},${y(c).toFixed(1)}`).join(" ");
  root.append(svg("polygon", { points: `0,${H} ${line} ${W},${H}`, class: "chance-area" }));
  root.append(svg("polyline", { points: line, class: "chance-line" }));
  root.append(svg("line", { x1: x(step), x2: x(step), y1: 0, y2: H, class: "chance-now" }));
  for (const swing of chances.swings) {
    const dot = svg("circle", {
      cx: x(swing.step),
      cy: y(swing.after),
      r: 6,
      class: "chance-swing",
      "data-step": swing.step,
    });
    dot.append(svg("title", {}, `step ${swing.step}: ${swing.by} ${swing.action}`));
    dot.addEventListener("click", (event) => {
      event.stopPropagation();
      go(swing.step);
    });
    root.append(dot);
  }
  root.addEventListener("click", (event) => {
    const box = root.getBoundingClientRect();
    go(Math.round(((event.clientX - box.left) / box.width) * chances.steps));
  });
  return el(
    "div",
    { class: "card" },
    el("h2", {}, "Chances over the game"),
    el(
      "p",
      { class: "muted" },
      "Team A's chances (blue, above the middle line: A ahead), from the game's heuristic evaluation. Click to go there; the dots are the biggest swings.",
    ),
    root,
    el(
      "ol",
      { class: "swings" },
      chances.swings.map((s) =>
        el(
          "li",
          {},
          el(
            "button",
            { onclick: () => go(s.step), "data-testid": "swing", "data-step": s.step },
            `step ${s.step}`,
          ),
          ` ${s.by}: ${s.action} — A ${Math.round(100 * s.before)}% → ${Math.round(100 * s.after)}%`,
          s.events.length ? el("span", { class: "muted" }, ` (${s.events.join(" ")})`) : null,
        ),
      ),
    ),
  );
}

export async function replayPage(main, where, gameId) {
  let step = 0;
  let data;
  try {
    data = await api(`/api/games/${gameId}/replay?step=0`);
  } catch (error) {
    errorPage(
      main,
      error.status === 404 ? "No such game" : "The replay cannot be shown",
      error.message,
    );
    return;
  }
  const total = data.steps;
  const finished = data.game.status === "finished";
  let ticket = 0;
  let errorText = "";
  let chances = null;
  if (finished)
    api(`/api/games/${gameId}/chances`)
      .then((c) => {
        chances = c;
        render();
      })
      .catch(() => {});
  async function go(to) {
    errorText = "";
    const mine = ++ticket; // quick clicks overlap: show only the answer to the latest request
    step = Math.max(0, Math.min(total, to));
    try {
      const answer = await api(`/api/games/${gameId}/replay?step=${step}`);
      if (mine !== ticket) return;
      data = answer;
      step = answer.step;
    } catch (error) {
      errorText = error.message;
    }
    render();
  }
  async function fork() {
    errorText = "";
    try {
      const created = await api(`/api/games/${gameId}/fork`, {
        method: "POST",
        body: { ply: step, mode: "hotseat" },
      });
      const humans = created.chairs.filter((c) => c.kind === "human");
      remember(created.id, humans);
      location.href = humans[0].url;
    } catch (error) {
      errorText = error.message;
      render();
    }
  }
  document.addEventListener("keydown", (event) => {
    if (event.target instanceof HTMLInputElement) return;
    const to = { ArrowLeft: step - 1, ArrowRight: step + 1, Home: 0, End: total }[event.key];
    if (to !== undefined) {
      event.preventDefault();
      go(to);
    }
  });
  function render() {
    where.textContent = `replay · ${data.game.title} · ${data.game.result}`;
    const slider = el("input", {
      type: "range",
      min: 0,
      max: total,
      value: step,
      "data-testid": "slider",
      "aria-label": "step",
    });
    slider.onchange = () => go(Number(slider.value));
    const jump = el("input", {
      type: "number",
      min: 0,
      max: total,
      value: step,
      style: "width:6em",
      "data-testid": "jump",
      "aria-label": "go to step",
    });
    jump.onchange = () => go(Number(jump.value));
    // The target is worked out at the click, from the step shown or asked for last: quick
    // clicks come before the re-render, and each must go one further.
    const button = (kind, target, label) =>
      el(
        "button",
        { onclick: () => go(target()), "data-testid": kind, "aria-label": label, title: label },
        icon(kind),
      );
    const after = finished
      ? el(
          "p",
          {},
          el(
            "a",
            { href: `/api/games/${gameId}/record`, "data-testid": "download" },
            "Download the record",
          ),
          " · ",
          el(
            "button",
            { onclick: fork, disabled: step >= total, "data-testid": "fork" },
            "Play on from here",
          ),
        )
      : el(
          "p",
          { class: "muted", "data-testid": "unfinished" },
          "This game is still being played: its record and “play on from here” become available when it ends ",
          "(until then they would reveal each side's secret choices). ",
          el("a", { href: `/play/${gameId}` }, "Watch it live"),
        );
    main.replaceChildren(
      el(
        "div",
        { class: "play" },
        el(
          "div",
          { class: "board-col" },
          el(
            "div",
            { class: "board-wrap" },
            drawBoard(data.board, { lastCells: lastMoveCells(data.log) }),
          ),
        ),
        legend(data.board, null, data.game.hooks.ball),
        el(
          "div",
          { class: "side" },
          el(
            "div",
            { class: "card" },
            el(
              "div",
              { class: "turn", "data-testid": "replay-step" },
              `Step ${step} of ${total}: ${data.prompt}`,
            ),
            el(
              "div",
              { class: "replay-controls" },
              button("first", () => 0, "first step"),
              button("back", () => step - 1, "step back (left arrow)"),
              button("forward", () => step + 1, "step forward (right arrow)"),
              button("last", () => total, "last step"),
              slider,
              jump,
            ),
            el("p", { class: "muted" }, "Keys: ← → step, Home / End jump."),
            errorText
              ? el("p", { class: "error", "data-testid": "replay-error", role: "alert" }, errorText)
              : null,
            after,
          ),
          chances ? chanceGraph(chances, step, go) : null,
          el(
            "div",
            { class: "card" },
            el(
              "table",
              { class: "panel-table", "data-testid": "panel" },
              data.board.panel.flatMap(panelRows),
            ),
          ),
          el(
            "div",
            { class: "card" },
            el("h2", {}, "What happened"),
            el(
              "ul",
              { class: "log", "data-testid": "log" },
              data.log
                .slice()
                .reverse()
                .map((e) =>
                  el(
                    "li",
                    {},
                    el("span", { class: "ply" }, `${e.ply} `),
                    el("span", { class: "by" }, e.by),
                    `: ${e.action}`,
                    e.events.length ? ` — ${e.events.join(" ")}` : "",
                  ),
                ),
            ),
          ),
        ),
      ),
    );
  }
  render();
}

// -- How to play: docs/rules/<game>.md, rendered (headings, paragraphs, lists, tables) ------
