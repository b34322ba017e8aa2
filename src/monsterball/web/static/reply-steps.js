// The game page's part in showing a reply step by step (steps.js plans and runs the frames):
// which frames an update gets and their boards, each frame's outline, and the banners of the
// steps drawn. `page` is play.js's view model.
import { bannerText, lastMoveSpaces } from "./game-state.js";
import { framesFor, lastTurnStart, planSteps } from "./steps.js";

const BANNER_MS = 2500;
const PACED = new Set(["slow", "normal"]); // bots-only games whose replies are shown step by step

// The steps of a reply that came in one update, shown one by one (steps.js), and a score's
// position held before the line-up (the move that scores also lines the next point up).
// Then the outline covers the last side's turn: every origin and destination of its runs.
export function replySteps(page, replayBoard, before, message) {
  const fresh = message.log.filter((e) => e.ply > before.game.ply);
  const whole = fresh.length > 0 && fresh[0].ply === before.game.ply + 1;
  const bots = !message.chairs.some((c) => c.kind === "human");
  const pace =
    whole &&
    page.settings.steps &&
    document.visibilityState === "visible" &&
    (!bots || PACED.has(message.game.speed));
  const from = page.drawn || before.board;
  const boards = new Map([[before.game.ply, Promise.resolve(before.board)]]);
  const boardAt = (step) => {
    if (!boards.has(step)) {
      const asked = replayBoard(step);
      asked.catch(() => {}); // a refused replay (429): the queue shows the live state instead
      boards.set(step, asked);
    }
    return boards.get(step);
  };
  const frames = whole ? framesFor(planSteps(fresh, pace), boardAt) : [];
  const start = pace ? lastTurnStart(fresh) : 0;
  page.outlined = lastMoveSpaces(from, message.board, fresh);
  if (start > 0) {
    boardAt(fresh[start].ply - 1)
      .then((board) => {
        if (page.state === message)
          page.outlined = lastMoveSpaces(board, message.board, fresh.slice(start));
      })
      .catch(() => {});
  }
  // A score held last: then its line-up, even if later moves replace the live state meanwhile.
  const last = frames[frames.length - 1];
  if (last && last.kind === "score") {
    const lineUp = {
      entry: last.entry,
      step: message.game.ply,
      kind: /** @type {const} */ ("step"),
      ms: 400,
    };
    frames.push({ ...lineUp, board: Promise.resolve(message.board) });
  }
  if (frames.length) page.steps.add(frames, from, page.drawnStep);
}

// A frame of a reply on screen (null: the live state again): its banner, its outline.
export function showStep(page, frame, render) {
  if (frame && frame.kind !== "wait") {
    // Nothing is outlined at a score, nor at the line-up after it (drawn from no board).
    frame.outline =
      frame.kind === "score" || !page.drawn
        ? new Set()
        : lastMoveSpaces(page.drawn, frame.board, [frame.entry]);
  }
  return render();
}

// Banners for the steps drawn since the last ones told: "Turnover", "Point!"... Each stays
// its 2.5 s however many moves follow (a paced bot game: 0.2 s apart).
export function announce(page, step, render) {
  const told = page.state.log.filter((e) => e.ply > page.announced && e.ply <= step);
  page.announced = Math.max(page.announced, step);
  const text = bannerText(told);
  if (!text) return;
  const shown = { text };
  page.banner = shown;
  setTimeout(() => {
    if (page.banner === shown) page.banner = null;
    render();
  }, BANNER_MS);
}
