// The teaching pages (issue 33): a player's guide per game (/guide/GAME) and interactive
// lessons (/learn/GAME). Both draw positions the engine produced (GET /api/guide/GAME,
// /api/learn/GAME) with the site's own board code; a lesson sends each attempt to the engine
// (POST /api/learn/GAME/LESSON/check) and shows its verdict: what happened, or why not.
import { animate, drawBoard } from "./board.js";
import { hintFor, hintsReady } from "./hints.js";
import { api, el } from "./util.js";

const PROGRESS = "monsterball-learn";

function stylesheet() {
  if (document.querySelector("link[data-learn]")) return;
  document.head.append(
    el("link", { rel: "stylesheet", href: "/static/learn.css", "data-learn": "" }),
  );
}

export function progress() {
  try {
    return JSON.parse(localStorage.getItem(PROGRESS) || "{}");
  } catch {
    return {};
  }
}

function saveProgress(gameId, lessonId, value) {
  const all = progress();
  all[gameId] = { ...(all[gameId] || {}), [lessonId]: value };
  localStorage.setItem(PROGRESS, JSON.stringify(all));
}

function links(gameId, here) {
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
function diagram(board, highlight, extra = {}) {
  const piece = highlight && highlight.piece;
  const cell = highlight && highlight.cell;
  return drawBoard(board, {
    actionable: new Set(piece ? [piece] : []),
    targets: new Set(piece && cell ? [cell] : []),
    cellTargets: new Set(!piece && cell ? [cell] : []),
    ...extra,
  });
}

// -- the guide ---------------------------------------------------------------------------

export async function guidePage(main, where, gameId) {
  stylesheet();
  const guide = await api(`/api/guide/${gameId}`);
  where.textContent = `${guide.title} · player's guide`;
  document.title = `How to play ${guide.title} — monsterball`;
  const toc = el(
    "ol",
    { class: "toc" },
    guide.sections.map((s) => el("li", {}, el("a", { href: `#${s.id}` }, s.title))),
  );
  main.replaceChildren(
    el(
      "article",
      { class: "guide-page", "data-testid": "guide" },
      el("h1", {}, `How to play ${guide.title}`),
      links(gameId, "guide"),
      el("p", { class: "lead" }, guide.summary),
      el(
        "p",
        {},
        "A ten-minute read. Then ",
        el("a", { href: `/learn/${gameId}` }, "try the lessons"),
        ": each one sets up a position and lets you make the move yourself.",
      ),
      el("div", { class: "card" }, el("h2", {}, "Contents"), toc),
      guide.sections.map((s) =>
        el(
          "section",
          {
            id: s.id,
            class: "guide-section",
            "data-testid": "guide-section",
            "data-kind": s.kind || "",
          },
          el("h2", {}, s.title),
          (s.text || []).map((p) => el("p", {}, p)),
          s.list
            ? el(
                "ul",
                {},
                s.list.map((item) => el("li", {}, item)),
              )
            : null,
          s.diagrams && s.diagrams.length
            ? el(
                "div",
                { class: "diagrams" },
                s.diagrams.map((d) =>
                  el(
                    "figure",
                    { class: "diagram", "data-testid": "diagram" },
                    diagram(d.board, d.highlight),
                    el("figcaption", {}, d.caption),
                  ),
                ),
              )
            : null,
        ),
      ),
      el(
        "p",
        {},
        el(
          "a",
          { class: "button primary", href: `/learn/${gameId}`, "data-testid": "start-lessons" },
          "Start the lessons",
        ),
      ),
    ),
  );
  if (location.hash) document.getElementById(location.hash.slice(1))?.scrollIntoView();
}

// -- the lessons ---------------------------------------------------------------------------

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
        body: { game: gameId, mode: "bot", bots: { B: "easy" }, coaches: 2 },
      });
      const human = created.chairs.find((c) => c.kind === "human");
      location.href = human.url;
    } catch (error) {
      button.disabled = false;
      feedback = { ok: false, text: error.message };
      render();
    }
  }

  function buttons(state) {
    const wanted = state.action;
    const plain = state.legal.filter((l) => !l.piece && !l.cell);
    if (!plain.length) return null;
    return el(
      "div",
      { class: "actions lesson-actions", "data-testid": "lesson-actions" },
      plain.map((l) =>
        el(
          "button",
          {
            onclick: () => attempt(l.a),
            disabled: pending || (feedback && feedback.ok),
            "data-action": l.a,
            class: l.a === wanted ? "highlight" : "",
            "data-highlight": l.a === wanted ? "true" : null,
            title: hintFor(gameId, l.a) || "",
          },
          l.a,
        ),
      ),
      hintFor(gameId, wanted) && plain.some((l) => l.a === wanted)
        ? el(
            "p",
            { class: "hint", "data-testid": "hint" },
            `“${wanted}”: ${hintFor(gameId, wanted)}`,
          )
        : null,
    );
  }

  function lessonList() {
    const marks = progress()[gameId] || {};
    return el(
      "ol",
      { class: "lesson-list", "data-testid": "lesson-list" },
      lessons.map((l, i) =>
        el(
          "li",
          { class: [i === index ? "current" : "", marks[l.id] === "done" ? "done" : ""].join(" ") },
          el(
            "button",
            {
              type: "button",
              onclick: () => open(i),
              "data-testid": `lesson-${l.id}`,
              "data-done": marks[l.id] === "done" ? "true" : "false",
            },
            marks[l.id] === "done" ? "✓ " : "",
            l.title,
          ),
        ),
      ),
    );
  }

  function render() {
    const item = lesson();
    const done = finished();
    const state = done ? null : current();
    const board = done ? item.end.board : state.board;
    const highlight = done || (feedback && feedback.ok) ? null : state.highlight;
    const drawing = diagram(
      feedback && feedback.ok ? (item.steps[step + 1] || item.end).board : board,
      highlight,
      {
        onCell,
        selected,
        actionable: new Set(highlight && highlight.piece && !selected ? [highlight.piece] : []),
      },
    );
    const shown = feedback && feedback.ok ? (item.steps[step + 1] || item.end).board : board;
    if (drawnBoard && drawnBoard !== shown) animate(drawing, drawnBoard, shown);
    drawnBoard = shown;
    const last = index === lessons.length - 1;
    const odds = state && state.odds;
    const bids = odds
      ? [
          odds.mark ? "the Mark" : "",
          odds.intercepts ? `${odds.intercepts} Intercept(s)` : "",
          odds.catch_marks ? "a Mark at the catch" : "",
          odds.challenges ? `${odds.challenges} Challenge(s)` : "",
        ]
          .filter(Boolean)
          .join(", ")
      : "";
    const say = done
      ? null
      : el(
          "div",
          { class: "try", "data-testid": "lesson-say" },
          el("strong", {}, `Step ${step + 1} of ${item.steps.length}. `),
          state.say,
          odds
            ? el(
                "p",
                { class: "lesson-odds", "data-testid": "lesson-odds" },
                `This throw is caught ${(100 * odds.p).toFixed(1)}% of the time, counting the dice of ${bids || "nobody (no defender can bid)"}`,
                odds.caveats.length ? `; not counted: ${odds.caveats.join("; ")}.` : ".",
              )
            : null,
        );
    const result = feedback
      ? el(
          "div",
          {
            class: feedback.ok ? "lesson-ok" : "lesson-error",
            role: feedback.ok ? "status" : "alert",
            "data-testid": feedback.ok ? "lesson-done" : "lesson-error",
          },
          el(
            "p",
            {},
            feedback.ok ? el("strong", {}, "Well done. ") : el("strong", {}, "Not quite. "),
            feedback.text,
          ),
          feedback.ok && feedback.events.length
            ? el(
                "ul",
                { class: "events" },
                feedback.events.map((e) => el("li", {}, e)),
              )
            : null,
          feedback.ok
            ? el(
                "button",
                { class: "primary", onclick: next, "data-testid": "lesson-next" },
                step + 1 < item.steps.length ? "Next step" : "Finish the lesson",
              )
            : el(
                "p",
                { class: "muted" },
                "Try again: the highlighted piece, space or button is the move this step teaches.",
              ),
        )
      : null;
    const complete = done
      ? el(
          "div",
          { class: "lesson-ok", "data-testid": "lesson-complete" },
          el("p", {}, el("strong", {}, `Lesson complete: ${item.title}.`), " ", item.goal),
          last
            ? [
                el(
                  "p",
                  {},
                  "You have met every part of a turn. The best way on is a real game: the easy bot plays random legal moves, so you can try things out.",
                ),
                el(
                  "button",
                  {
                    class: "primary",
                    onclick: (e) => playBot(e.target),
                    "data-testid": "play-bot",
                  },
                  "Play a real game against the easy bot",
                ),
              ]
            : el(
                "button",
                { class: "primary", onclick: () => open(index + 1), "data-testid": "next-lesson" },
                `Next lesson: ${lessons[index + 1].title}`,
              ),
        )
      : null;
    const choiceBar = choices
      ? el(
          "div",
          { class: "actions choice", "data-testid": "lesson-choices" },
          el("span", {}, "Which one?"),
          choices.map((l) =>
            el(
              "button",
              {
                onclick: () => attempt(l.a),
                "data-action": l.a,
                class: l.a === state.action ? "highlight" : "",
                "data-highlight": l.a === state.action ? "true" : null,
                title: hintFor(gameId, l.a) || "",
              },
              l.a,
            ),
          ),
        )
      : null;
    const roster =
      state && state.roster
        ? el(
            "div",
            { class: "card", "data-testid": "lesson-roster" },
            el("h2", {}, "Your draft"),
            el(
              "p",
              { "data-testid": "points-left" },
              `${state.roster.points} of ${state.roster.max_points} points left, ${state.roster.slots} players to pick.`,
            ),
            el(
              "ul",
              { class: "good-at" },
              state.roster.types.map((t) =>
                el("li", {}, el("strong", {}, `${t.type} (${t.points})`), ` — ${t.good_at}`),
              ),
            ),
          )
        : null;
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
          lessonList(),
        ),
        el(
          "section",
          { class: "lesson" },
          el("h1", {}, item.title),
          el("p", { class: "goal" }, item.goal),
          step === 0 && !feedback
            ? el("p", { class: "intro", "data-testid": "lesson-intro" }, item.intro)
            : null,
          say,
          result,
          complete,
          roster,
          done || (feedback && feedback.ok) ? null : [choiceBar, buttons(state)],
          shown.pieces.length ? el("div", { class: "board-wrap" }, drawing) : null,
          el("p", { class: "muted" }, `You play team ${item.seat}. `, state ? state.prompt : ""),
        ),
      ),
    );
  }

  render();
  hintsReady().then(render);
}
