// The pieces of a lesson page (learn.js puts them together): the side the learner plays, the
// step to try with its hint, the engine's verdict, the end of a lesson, the buttons and the
// Midway draft card. Each is built from the lesson data and what the learner has done.
import { hintFor } from "./hints.js";
import { el } from "./util.js";

const COLOURS = { A: "blue", B: "orange" };

/**
 * Which team the learner plays in this lesson, and its role; marked as a side switch when the
 * lesson before had the learner on the other team (easy to miss otherwise).
 * @param {{seat: string, role?: string}} item the lesson
 * @param {{seat: string} | undefined} before the lesson before it, if any
 */
export function sideBanner(item, before) {
  const switched = Boolean(before && before.seat !== item.seat);
  const team = `team ${item.seat} (${COLOURS[item.seat] || item.seat})`;
  const role = item.role ? `, ${item.role}` : "";
  return el(
    "p",
    {
      class: `lesson-side side-${item.seat}${switched ? " switched" : ""}`,
      "data-testid": "lesson-side",
      "data-switched": switched ? "true" : "false",
      role: switched ? "status" : null,
    },
    el("span", { class: "swatch", "aria-hidden": "true" }),
    el(
      "span",
      {},
      switched
        ? [
            el("strong", {}, "Side switch: "),
            `now you play ${team}${role}. In the last lesson you played team ${before.seat}.`,
          ]
        : [el("strong", {}, "You play "), `${team}${role}.`],
    ),
  );
}

/** The step to try, its hint (how to make the move here) and, for a throw, its odds. */
export function stepBox(state, item, step) {
  const odds = state.odds;
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
  return el(
    "div",
    { class: "try", "data-testid": "lesson-say" },
    el("strong", {}, `Step ${step + 1} of ${item.steps.length}. `),
    state.say,
    state.hint
      ? el(
          "p",
          { class: "step-hint", "data-testid": "step-hint" },
          el("strong", {}, "Hint: "),
          state.hint,
        )
      : null,
    odds
      ? el(
          "p",
          { class: "lesson-odds", "data-testid": "lesson-odds" },
          `This throw is caught ${(100 * odds.p).toFixed(1)}% of the time, counting the dice of ${bids || "nobody (no defender can bid)"}`,
          odds.caveats.length ? `; not counted: ${odds.caveats.join("; ")}.` : ".",
        )
      : null,
  );
}

/** The engine's verdict on an attempt: what happened and the way on, or why not. */
export function feedbackBox(feedback, moreSteps, next) {
  return el(
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
          moreSteps ? "Next step" : "Finish the lesson",
        )
      : el(
          "p",
          { class: "muted" },
          "Try again: the highlighted piece, space or button is the move this step teaches.",
        ),
  );
}

/** A finished lesson: on to the next one, or (the last) a real game against the easy bot,
 * short (firstGame: the preset of a first game and its words). */
export function completeBox(item, nextLesson, openNext, playBot, firstGame) {
  return el(
    "div",
    { class: "lesson-ok", "data-testid": "lesson-complete" },
    el("p", {}, el("strong", {}, `Lesson complete: ${item.title}.`), " ", item.goal),
    nextLesson
      ? el(
          "button",
          { class: "primary", onclick: openNext, "data-testid": "next-lesson" },
          `Next lesson: ${nextLesson.title}`,
          nextLesson.seat !== item.seat ? ` (you switch to team ${nextLesson.seat})` : "",
        )
      : [
          el(
            "p",
            {},
            "You have met every part of a turn. The best way on is a real game: the easy bot plays random legal moves, so you can try things out.",
          ),
          el(
            "button",
            { class: "primary", onclick: (e) => playBot(e.target), "data-testid": "play-bot" },
            firstGame
              ? `Play a short game against the easy bot (${firstGame.about})`
              : "Play a real game against the easy bot",
          ),
        ],
  );
}

function actionButton(gameId, l, wanted, attempt, disabled) {
  return el(
    "button",
    {
      onclick: () => attempt(l.a),
      disabled,
      "data-action": l.a,
      class: l.a === wanted ? "highlight" : "",
      "data-highlight": l.a === wanted ? "true" : null,
      title: hintFor(gameId, l.a) || "",
    },
    l.a,
  );
}

/** The step's buttons: every legal action that is not a click on the board. */
export function actionButtons(gameId, state, attempt, disabled) {
  const wanted = state.action;
  const plain = state.legal.filter((l) => !l.piece && !l.cell);
  if (!plain.length) return null;
  return el(
    "div",
    { class: "actions lesson-actions", "data-testid": "lesson-actions" },
    plain.map((l) => actionButton(gameId, l, wanted, attempt, disabled)),
    // The step box already says it when the step's hint is this button's.
    hintFor(gameId, wanted) &&
      plain.some((l) => l.a === wanted) &&
      state.hint !== hintFor(gameId, wanted)
      ? el("p", { class: "hint", "data-testid": "hint" }, `“${wanted}”: ${hintFor(gameId, wanted)}`)
      : null,
  );
}

/** A clicked piece with several moves: which one. */
export function choiceBar(gameId, choices, wanted, attempt) {
  return el(
    "div",
    { class: "actions choice", "data-testid": "lesson-choices" },
    el("span", {}, "Which one?"),
    choices.map((l) => actionButton(gameId, l, wanted, attempt, false)),
  );
}

/** Midway's draft: points and picks left, and what each type is good at. */
export function rosterCard(roster) {
  return el(
    "div",
    { class: "card", "data-testid": "lesson-roster" },
    el("h2", {}, "Your draft"),
    el(
      "p",
      { "data-testid": "points-left" },
      `${roster.points} of ${roster.max_points} points left, ${roster.slots} players to pick.`,
    ),
    el(
      "ul",
      { class: "good-at" },
      roster.types.map((t) =>
        el("li", {}, el("strong", {}, `${t.type} (${t.points})`), ` — ${t.good_at}`),
      ),
    ),
  );
}

/** The game's lessons, the current one marked, the finished ones ticked. */
export function lessonList(lessons, index, marks, open) {
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
          el("span", { class: `side-dot side-${l.seat}`, title: `you play team ${l.seat}` }),
        ),
      ),
    ),
  );
}
