// The replay viewer and the "How to play" pages.
import { drawBoard, legend } from "./board.js";
import { lastMoveCells } from "./play.js";
import { remember } from "./seats.js";
import { api, el, errorPage, svg } from "./util.js";

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
  const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "chances", "data-testid": "chances",
    role: "img", "aria-label": "team A's chances over the game; click to go to that step" });
  root.append(svg("rect", { x: 0, y: 0, width: W, height: H, class: "chance-bg" }));
  root.append(svg("line", { x1: 0, x2: W, y1: H / 2, y2: H / 2, class: "chance-mid" }));
  const line = chances.points.map(([i, c]) => `${x(i).toFixed(1)},${y(c).toFixed(1)}`).join(" ");
  root.append(svg("polygon", { points: `0,${H} ${line} ${W},${H}`, class: "chance-area" }));
  root.append(svg("polyline", { points: line, class: "chance-line" }));
  root.append(svg("line", { x1: x(step), x2: x(step), y1: 0, y2: H, class: "chance-now" }));
  for (const swing of chances.swings) {
    const dot = svg("circle", { cx: x(swing.step), cy: y(swing.after), r: 6, class: "chance-swing", "data-step": swing.step });
    dot.append(svg("title", {}, `step ${swing.step}: ${swing.by} ${swing.action}`));
    dot.addEventListener("click", (event) => { event.stopPropagation(); go(swing.step); });
    root.append(dot);
  }
  root.addEventListener("click", (event) => {
    const box = root.getBoundingClientRect();
    go(Math.round(((event.clientX - box.left) / box.width) * chances.steps));
  });
  return el("div", { class: "card" }, el("h2", {}, "Chances over the game"),
    el("p", { class: "muted" }, "Team A's chances (blue, above the middle line: A ahead), from the game's heuristic evaluation. Click to go there; the dots are the biggest swings."),
    root,
    el("ol", { class: "swings" }, chances.swings.map((s) => el("li", {},
      el("button", { onclick: () => go(s.step), "data-testid": "swing", "data-step": s.step },
        `step ${s.step}`), ` ${s.by}: ${s.action} — A ${Math.round(100 * s.before)}% → ${Math.round(100 * s.after)}%`,
      s.events.length ? el("span", { class: "muted" }, ` (${s.events.join(" ")})`) : null))));
}

export async function replayPage(main, where, gameId) {
  let step = 0;
  let data;
  try {
    data = await api(`/api/games/${gameId}/replay?step=0`);
  } catch (error) {
    errorPage(main, error.status === 404 ? "No such game" : "The replay cannot be shown", error.message);
    return;
  }
  const total = data.steps;
  const finished = data.game.status === "finished";
  let ticket = 0;
  let errorText = "";
  let chances = null;
  if (finished) api(`/api/games/${gameId}/chances`).then((c) => { chances = c; render(); }).catch(() => {});
  async function go(to) {
    errorText = "";
    const mine = ++ticket; // quick clicks overlap: show only the answer to the latest request
    step = Math.max(0, Math.min(total, to));
    try {
      const answer = await api(`/api/games/${gameId}/replay?step=${step}`);
      if (mine !== ticket) return;
      data = answer;
      step = answer.step;
    } catch (error) { errorText = error.message; }
    render();
  }
  async function fork() {
    errorText = "";
    try {
      const created = await api(`/api/games/${gameId}/fork`, { method: "POST", body: { ply: step, mode: "hotseat" } });
      const humans = created.chairs.filter((c) => c.kind === "human");
      remember(created.id, humans);
      location.href = humans[0].url;
    } catch (error) { errorText = error.message; render(); }
  }
  document.addEventListener("keydown", (event) => {
    if (event.target instanceof HTMLInputElement) return;
    const to = { ArrowLeft: step - 1, ArrowRight: step + 1, Home: 0, End: total }[event.key];
    if (to !== undefined) { event.preventDefault(); go(to); }
  });
  function render() {
    where.textContent = `replay · ${data.game.title} · ${data.game.result}`;
    const slider = el("input", { type: "range", min: 0, max: total, value: step, "data-testid": "slider", "aria-label": "step" });
    slider.onchange = () => go(Number(slider.value));
    const jump = el("input", { type: "number", min: 0, max: total, value: step, style: "width:6em", "data-testid": "jump", "aria-label": "go to step" });
    jump.onchange = () => go(Number(jump.value));
    // The target is worked out at the click, from the step shown or asked for last: quick
    // clicks come before the re-render, and each must go one further.
    const button = (kind, target, label) => el("button", { onclick: () => go(target()), "data-testid": kind, "aria-label": label, title: label }, icon(kind));
    const after = finished
      ? el("p", {},
        el("a", { href: `/api/games/${gameId}/record`, "data-testid": "download" }, "Download the record"), " · ",
        el("button", { onclick: fork, disabled: step >= total, "data-testid": "fork" }, "Play on from here"))
      : el("p", { class: "muted", "data-testid": "unfinished" },
        "This game is still being played: its record and “play on from here” become available when it ends ",
        "(until then they would reveal each side's secret choices). ",
        el("a", { href: `/play/${gameId}` }, "Watch it live"));
    main.replaceChildren(el("div", { class: "play" },
      el("div", { class: "board-col" },
        el("div", { class: "board-wrap" }, drawBoard(data.board, { lastCells: lastMoveCells(data.log) }))),
      legend(data.board, null, data.game.game === "midway" ? "ball" : "disc"),
      el("div", { class: "side" },
        el("div", { class: "card" },
          el("div", { class: "turn", "data-testid": "replay-step" }, `Step ${step} of ${total}: ${data.prompt}`),
          el("div", { class: "replay-controls" },
            button("first", () => 0, "first step"), button("back", () => step - 1, "step back (left arrow)"),
            button("forward", () => step + 1, "step forward (right arrow)"), button("last", () => total, "last step"),
            slider, jump),
          el("p", { class: "muted" }, "Keys: ← → step, Home / End jump."),
          errorText ? el("p", { class: "error", "data-testid": "replay-error", role: "alert" }, errorText) : null,
          after),
        chances ? chanceGraph(chances, step, go) : null,
        el("div", { class: "card" }, el("table", { class: "panel-table", "data-testid": "panel" },
          data.board.panel.map(([k, v]) => el("tr", {}, el("td", {}, k), el("td", {}, v))))),
        el("div", { class: "card" }, el("h2", {}, "What happened"),
          el("ul", { class: "log", "data-testid": "log" }, data.log.slice().reverse().map((e) => el("li", {},
            el("span", { class: "ply" }, `${e.ply} `), el("span", { class: "by" }, e.by), `: ${e.action}`,
            e.events.length ? ` — ${e.events.join(" ")}` : "")))))));
  }
  render();
}

// -- How to play: docs/rules/<game>.md, rendered (headings, paragraphs, lists, tables) ------

function inline(text) {
  const out = [];
  const pattern = /(`[^`]+`|\*\*[^*]+\*\*|\*[^*]+\*|\[[^\]]+\]\([^)]+\))/g;
  let at = 0;
  for (const match of text.matchAll(pattern)) {
    out.push(text.slice(at, match.index));
    const token = match[0];
    if (token.startsWith("`")) out.push(el("code", {}, token.slice(1, -1)));
    else if (token.startsWith("**")) out.push(el("strong", {}, token.slice(2, -2)));
    else if (token.startsWith("*")) out.push(el("em", {}, token.slice(1, -1)));
    else {
      const [, label, href] = /\[([^\]]+)\]\(([^)]+)\)/.exec(token);
      out.push(href.startsWith("#") ? el("a", { href }, label) : label); // repository paths do not resolve here
    }
    at = match.index + token.length;
  }
  out.push(text.slice(at));
  return out;
}

const slug = (text) => text.toLowerCase().replace(/[^a-z0-9 -]/g, "").trim().replace(/\s+/g, "-");

export function markdown(text) {
  const blocks = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length;) {
    const line = lines[i];
    if (!line.trim()) { i++; continue; }
    const heading = /^(#{1,4})\s+(.*)$/.exec(line);
    if (heading) {
      const level = Math.min(heading[1].length + 1, 5);
      blocks.push(el(`h${level}`, { id: slug(heading[2]) }, inline(heading[2])));
      i++;
    } else if (line.startsWith("|")) {
      const rows = [];
      while (i < lines.length && lines[i].startsWith("|")) rows.push(lines[i++]);
      const cells = (row) => row.replace(/^\||\|$/g, "").split(/(?<!\\)\|/).map((c) => c.trim());
      const head = cells(rows[0]);
      const body = rows.slice(2).map(cells);
      blocks.push(el("div", { class: "table-scroll" }, el("table", { class: "rules" },
        el("thead", {}, el("tr", {}, head.map((h) => el("th", {}, inline(h))))),
        el("tbody", {}, body.map((r) => el("tr", { id: /^[A-Z]+-[A-Z0-9-]+$/.test(r[0]) ? r[0] : null }, r.map((c) => el("td", {}, inline(c)))))))));
    } else if (/^\s*([-*]|\d+\.)\s/.test(line)) {
      const items = [];
      while (i < lines.length && /^\s*([-*]|\d+\.)\s/.test(lines[i])) {
        let item = lines[i++].replace(/^\s*([-*]|\d+\.)\s/, "");
        while (i < lines.length && /^\s{2,}\S/.test(lines[i]) && !/^\s*([-*]|\d+\.)\s/.test(lines[i])) item += ` ${lines[i++].trim()}`;
        items.push(el("li", {}, inline(item)));
      }
      blocks.push(el(/^\s*\d/.test(line) ? "ol" : "ul", {}, items));
    } else if (line.startsWith("```")) {
      const code = [];
      i++;
      while (i < lines.length && !lines[i].startsWith("```")) code.push(lines[i++]);
      i++;
      blocks.push(el("pre", {}, code.join("\n")));
    } else {
      const para = [];
      while (i < lines.length && lines[i].trim() && !/^(#|\||```|\s*([-*]|\d+\.)\s)/.test(lines[i])) para.push(lines[i++]);
      blocks.push(el("p", {}, inline(para.join(" "))));
    }
  }
  return blocks;
}

export async function rulesPage(main, where, game) {
  let text;
  try {
    const response = await fetch(`/api/rules/${encodeURIComponent(game)}`);
    if (!response.ok) throw new Error((await response.json()).message);
    text = await response.text();
  } catch (error) {
    errorPage(main, "No rules page", error.message);
    return;
  }
  where.textContent = `how to play · ${game}`;
  document.title = `How to play ${game} — monsterball`;
  main.replaceChildren(el("article", { class: "rules-page card", "data-testid": "rules" },
    el("p", {}, el("a", { href: "/" }, "← lobby"), " · The rules as this program plays them: each rule's id, the rulebook's words, and the rulings where the book is silent."),
    markdown(text)));
  if (location.hash) document.getElementById(location.hash.slice(1))?.scrollIntoView();
}
