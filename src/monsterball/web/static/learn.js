// The interactive lessons (/learn/GAME, issue 33): each lesson a set position the engine
// produced (GET /api/learn/GAME), drawn with the site's own board code. The page says what to
// try and highlights where; each attempt goes to the engine
// (POST /api/learn/GAME/LESSON/check), whose verdict is shown: what happened, or why not.
// The page's pieces are built in lesson-parts.js; the guide is guide.js.
import { animate } from "./board.js";
import { hintsReady } from "./hints.js";
import { diagram, links, progress, saveProgress, stylesheet } from "./learn-common.js";
import {
  actionButtons,
  choiceBar,
  completeBox,
  feedbackBox,
  lessonList,
  rosterCard,
  sideBanner,
  stepBox,
} from "./lesson-parts.js";
import { remember } from "./seats.js";
import { api, el } from "./util.js";

export async function learnPage(main, where, gameId) {
  stylesheet();
  const data = await api(`/api/learn/${gameId}`);
  where.textContent = `${data.title} · lessons`;
  document.title = `Learn ${data.title} — monsterball`;
  const lessons = data.lessons;
  const saved = progress()[gameId] || {};
  const wanted = new URLSearchParams(location.search).get("lesson");
  let index = Math.max(
    0,
    lessons.findIndex((l) => (wanted ? l.id === wanted : saved[l.id] !== "done")),
  );
  if (!wanted && lessons.every((l) => saved[l.id] === "done")) index = 0;
  let step = 0;
  let selected = null;
  let feedback = null; // {ok, text, events}
  let choices = null;
  let pending = false;
  let drawnBoard = null;

  const lesson = () => lessons[index];
  const current = () => lesson().steps[step];
  const finished = () => step >= lesson().steps.length;

  function open(i) {
    index = i;
    step = 0;
    selected = null;
    feedback = null;
    choices = null;
    drawnBoard = null;
    history.replaceState(null, "", `/learn/${gameId}?lesson=${lessons[i].id}`);
    render();
  }

  // The learner's click becomes an attempt: the legal action it names, or else the step's own
  // move with the clicked piece or space put in (so the engine can say why that is not allowed).
  function substitute(piece, cell) {
    const { highlight } = current();
    let text = current().action;
    if (highlight.piece && piece)
      text = text.replace(new RegExp(`\\b${highlight.piece}\\b`), piece);
    if (highlight.cell && cell)
      text = text.replace(new RegExp(`\\b${highlight.cell}\\b(?!.*\\b${highlight.cell}\\b)`), cell);
    return text;
  }

  function onCell(cell) {
    if (pending || finished() || (feedback && feedback.ok)) return;
    const { legal, highlight } = current();
    const piece = current().board.pieces.find((p) => p.cell === cell);
    if (selected) {
      if (piece && piece.id === selected) {
        selected = null;
        render();
        return;
      }
      const hit = legal.find((l) => l.piece === selected && l.cell === cell);
      attempt(hit ? hit.a : substitute(selected, cell));
      return;
    }
    if (!piece && highlight.piece && highlight.cell && cell === highlight.cell) {
      attempt(current().action); // the green space first: the highlighted piece goes there
      return;
    }
    if (piece && highlight.piece) {
      const own = legal.filter((l) => l.piece === piece.id);
      if (highlight.cell) {
        selected = piece.id;
        feedback = null;
        render();
        return;
      }
      const plain = own.filter((l) => !l.cell);
      if (plain.length === 1) attempt(plain[0].a);
      else if (plain.length > 1) {
        choices = plain;
        render();
      } else attempt(substitute(piece.id, null));
      return;
    }
    if (highlight.cell && !highlight.piece) attempt(substitute(null, cell));
  }

  async function attempt(action) {
    pending = true;
    choices = null;
    render();
    try {
      const verdict = await api(`/api/learn/${gameId}/${lesson().id}/check`, {
        method: "POST",
        body: { step, action },
      });
      feedback = verdict.ok
        ? { ok: true, text: current().done, events: verdict.events }
        : { ok: false, text: verdict.reason };
    } catch (error) {
      feedback = { ok: false, text: error.message };
    }
    pending = false;
    selected = null;
    if (feedback.ok)
      saveProgress(gameId, lesson().id, step + 1 >= lesson().steps.length ? "done" : step + 1);
    render();
  }

  function next() {
    drawnBoard = current().board;
    step += 1;
    feedback = null;
    selected = null;
    render();
  }

  async function playBot(button) {
    button.disabled = true;
    try {
      const created = await api("/api/games", {
        method: "POST",
        body: {
          game: gameId,
          preset: data.first_game ? data.first_game.preset : null,
          mode: "bot",
          bots: { B: "easy" },
          coaches: 2,
        },
      });
      const human = created.chairs.find((c) => c.kind === "human");
      remember(created.id, [human]); // the lobby lists it among "your games"
      location.href = human.url;
    } catch (error) {
      button.disabled = false;
      feedback = { ok: false, text: error.message };
      render();
    }
  }

  function render() {
    const item = lesson();
    const done = finished();
    const state = done ? null : current();
    const moved = feedback && feedback.ok;
    const highlight = done || moved ? null : state.highlight;
    const shown = done
      ? item.end.board
      : moved
        ? (item.steps[step + 1] || item.end).board
        : state.board;
    const drawing = diagram(shown, highlight, {
      onCell,
      selected,
      actionable: new Set(highlight && highlight.piece && !selected ? [highlight.piece] : []),
    });
    if (drawnBoard && drawnBoard !== shown) animate(drawing, drawnBoard, shown);
    drawnBoard = shown;
    const busy = pending || Boolean(moved);
    main.replaceChildren(
      el(
        "div",
        {
          class: "learn-page",
          "data-testid": "lessons",
          "data-lesson": item.id,
          "data-step": step,
          "data-pending": pending ? "true" : "false",
        },
        el(
          "aside",
          { class: "card" },
          el("h2", {}, `Learn ${data.title}`),
          links(gameId, "lessons"),
          lessonList(lessons, index, progress()[gameId] || {}, open),
        ),
        el(
          "section",
          { class: "lesson" },
          el("h1", {}, item.title),
          sideBanner(item, lessons[index - 1]),
          el("p", { class: "goal" }, item.goal),
          step === 0 && !feedback
            ? el("p", { class: "intro", "data-testid": "lesson-intro" }, item.intro)
            : null,
          done ? null : stepBox(state, item, step),
          feedback ? feedbackBox(feedback, step + 1 < item.steps.length, next) : null,
          done
            ? completeBox(item, lessons[index + 1], () => open(index + 1), playBot, data.first_game)
            : null,
          state && state.roster ? rosterCard(state.roster) : null,
          done || moved
            ? null
            : [
                choices ? choiceBar(gameId, choices, state.action, attempt) : null,
                actionButtons(gameId, state, attempt, busy),
              ],
          shown.pieces.length ? el("div", { class: "board-wrap" }, drawing) : null,
          el("p", { class: "muted" }, state ? state.prompt : ""),
        ),
      ),
    );
  }

  render();
  hintsReady().then(render);
}
