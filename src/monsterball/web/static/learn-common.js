// What the guide and the lesson pages share: their stylesheet, the learner's saved progress,
// the links between the teaching pages and a board drawn with one move shown.
import { drawBoard } from "./board.js";
import { el } from "./util.js";

const PROGRESS = "monsterball-learn";

export function stylesheet() {
  if (document.querySelector("link[data-learn]")) return;
  document.head.append(
    el("link", { rel: "stylesheet", href: "/static/learn.css", "data-learn": "" }),
  );
}

/** Every game's lessons done or under way: {gameId: {lessonId: "done" | next step}}. */
export function progress() {
  try {
    return JSON.parse(localStorage.getItem(PROGRESS) || "{}");
  } catch {
    return {};
  }
}

export function saveProgress(gameId, lessonId, value) {
  const all = progress();
  all[gameId] = { ...(all[gameId] || {}), [lessonId]: value };
  localStorage.setItem(PROGRESS, JSON.stringify(all));
}

export function links(gameId, here) {
  const item = (href, text, id) =>
    here === id ? el("strong", {}, text) : el("a", { href, "data-testid": `to-${id}` }, text);
  return el(
    "nav",
    { class: "learn-links", "aria-label": "learning pages" },
    item(`/guide/${gameId}`, "Player's guide", "guide"),
    " · ",
    item(`/learn/${gameId}`, "Lessons", "lessons"),
    " · ",
    el("a", { href: `/rules/${gameId}`, "data-testid": "rules-detail" }, "Rules in detail"),
    " · ",
    el("a", { href: "/" }, "Lobby"),
  );
}

// A board with one move shown: the piece to act (yellow ring) and where it goes (green).
export function diagram(board, highlight, extra = {}) {
  const piece = highlight && highlight.piece;
  const cell = highlight && highlight.cell;
  return drawBoard(board, {
    actionable: new Set(piece ? [piece] : []),
    targets: new Set(piece && cell ? [cell] : []),
    cellTargets: new Set(!piece && cell ? [cell] : []),
    ...extra,
  });
}
