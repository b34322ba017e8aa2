// The game page's pure logic (no DOM, no network): what a click means, what to tell the
// player, which spaces the last move touched, how the move list grows. Unit-tested by
// tests/js/game-state.test.js, type-checked strictly (tsconfig.strict.json).

/**
 * @typedef {{a: string, piece: string | null, cell: string | null}} Legal
 * @typedef {{id: string, cell: string, team: number, label: string, title: string,
 *   size: number, flags: string[]}} Piece
 * @typedef {{cols: number, rows: number, pieces: Piece[], ball: {cell: string, held: boolean,
 *   kind?: string} | null, panel: [string, string][]}} Board
 * @typedef {{ply: number, by: string, action: string, events: string[], banner: string,
 *   scored_at: number | null}} Entry
 * @typedef {{kind: "send", action: string} | {kind: "choose", options: Legal[]}
 *   | {kind: "select", piece: string | null} | {kind: "stack", pieces: Piece[]}
 *   | {kind: "none"}} Click
 */

const CELL = /\b[a-z]\d{1,2}\b/;
const CELLS = /\b[a-z]\d{1,2}\b/g;

/**
 * The spaces named by the latest move that names any (an "end" or a die names none).
 * @param {Entry[]} log
 * @returns {Set<string>}
 */
export function lastMoveCells(log) {
  const entry = log
    .slice()
    .reverse()
    .find((e) => e.by !== "dice" && CELL.test(e.action));
  return new Set(entry ? entry.action.match(CELLS) || [] : []);
}

/**
 * The spaces the last move touched: those the log's latest move names, where the pieces that
 * moved since the board drawn before stood and went (a turn of several runs: every run), where
 * the disc or ball flew from and to, but
 * not spaces emptied by a reset (a point scored puts every piece back: nothing is outlined).
 * @param {Board | null} before
 * @param {Board} after
 * @param {Entry[]} log
 * @returns {Set<string>}
 */
export function lastMoveSpaces(before, after, log) {
  const cells = lastMoveCells(log);
  if (!before) return cells;
  const now = new Map(after.pieces.map((p) => [p.id, p.cell]));
  const moved = before.pieces.filter((p) => now.has(p.id) && now.get(p.id) !== p.cell);
  if (moved.length > 0 && moved.length === after.pieces.length && after.pieces.length > 4) {
    return new Set(); // everyone moved at once: a line-up after a score, not a move
  }
  for (const piece of moved) {
    cells.add(piece.cell);
    cells.add(/** @type {string} */ (now.get(piece.id)));
  }
  // A throw moves only the disc: where it flew from and where it came down.
  if (before.ball && after.ball && before.ball.cell !== after.ball.cell) {
    cells.add(before.ball.cell);
    cells.add(after.ball.cell);
  }
  return cells;
}

/**
 * The full move list after a state's log tail arrived: `reload` when entries are missing
 * (ask the server for every move).
 * @param {Entry[]} moves
 * @param {Entry[]} log
 * @returns {{moves: Entry[], reload: boolean}}
 */
export function mergeMoves(moves, log) {
  if (!log.length) return { moves, reload: false };
  const last = moves.length ? moves[moves.length - 1].ply : null;
  if (last === null) return { moves: log.slice(), reload: log[0].ply > 1 };
  const fresh = log.filter((e) => e.ply > last);
  if (fresh.length && fresh[0].ply > last + 1) return { moves, reload: true };
  return { moves: moves.concat(fresh), reload: false };
}

/**
 * What a click on a space means. Pieces sharing a space (a Midway stack) are told apart by
 * a "which one?" picker unless only one of them can act.
 * @param {{legal: Legal[], pieces: Piece[], selected: string | null}} at
 * @param {string} cell
 * @param {string | null} [chosen] the piece picked from a stack at this space
 * @returns {Click}
 */
export function cellClick(at, cell, chosen = null) {
  const { legal, pieces, selected } = at;
  if (selected && !chosen) {
    const hits = legal.filter((l) => l.piece === selected && l.cell === cell);
    if (hits.length) return choice(hits);
  }
  const here = pieces.filter((p) => p.cell === cell);
  let pick = chosen;
  if (here.length > 1 && !pick) {
    const acting = here.filter((p) => legal.some((l) => l.piece === p.id));
    const candidates = acting.length ? acting : here.filter((p) => named(legal, p.id));
    if (candidates.length > 1) return { kind: "stack", pieces: candidates };
    if (candidates.length === 1) pick = candidates[0].id;
  }
  const piece = pick ? here.find((p) => p.id === pick) : here[0];
  if (piece) {
    const own = legal.filter((l) => l.piece === piece.id);
    if (own.some((l) => l.cell)) {
      return { kind: "select", piece: selected === piece.id ? null : piece.id };
    }
    if (own.length) return choice(own);
    const naming = legal.filter((l) => named([l], piece.id));
    if (pick && naming.length) return choice(naming); // e.g. the tackles of a defender
  }
  const targets = legal.filter((l) => !l.piece && l.cell === cell);
  if (targets.length) return choice(targets);
  return { kind: "select", piece: null };
}

/** @param {Legal[]} legal @param {string} id */
function named(legal, id) {
  const word = new RegExp(`(^|\\s)${id}(\\s|$)`);
  return legal.some((l) => word.test(l.a));
}

/** @param {Legal[]} options @returns {Click} */
function choice(options) {
  return options.length === 1
    ? { kind: "send", action: options[0].a }
    : { kind: "choose", options };
}

/**
 * What to do next, in words (the first-game guide). What a click does in a game's own words
 * ("throw to him", "roll monster defence") comes from its lesson data through ``clickText``
 * (hints.js clickFor), so this names no game.
 * @param {Legal[]} legal
 * @param {string | null} selected
 * @param {Set<string>} cellTargets
 * @param {(kind: "aim" | "ring", action: string) => string | null} [clickText]
 */
export function guide(legal, selected, cellTargets, clickText = () => null) {
  if (selected) {
    const aimed = legal
      .filter((l) => l.piece === selected)
      .map((l) => clickText("aim", l.a))
      .find(Boolean);
    if (aimed) return aimed.replaceAll("$piece", selected);
    return `Click a green space to move ${selected} there, or click ${selected} again to choose another piece.`;
  }
  if (legal.some((l) => l.piece && l.cell)) {
    return "Click one of your pieces with a yellow ring, then one of the green spaces it can reach.";
  }
  // A click on a ringed piece, where the game says what all of them do (issue 33).
  const ringed = new Set(legal.filter((l) => l.piece).map((l) => clickText("ring", l.a)));
  const [said] = ringed;
  if (ringed.size === 1 && said) return said;
  if (legal.some((l) => l.piece))
    return "Click one of your pieces with a yellow ring to act with it.";
  if (cellTargets.size) return "Click one of the yellow spaces on the board.";
  const words = legal
    .slice(0, 3)
    .map((l) => `“${l.a}”`)
    .join(", ");
  return `Choose with a button below (${words}${legal.length > 3 ? ", …" : ""}).`;
}

/**
 * The end of a game in the player's words: "You won", "You lost", or the result as it is.
 * @param {string} result the server's result text ("team A wins, A 2 - B 1")
 * @param {string | null} yourTeam the team this page plays (null: a spectator, hot-seat)
 */
export function resultForYou(result, yourTeam) {
  if (!yourTeam) return result;
  const agreed = /^draw by agreement,?\s*/i.exec(result);
  if (agreed) return `A draw by agreement — ${result.slice(agreed[0].length)}`;
  if (/^draw\b/i.test(result)) return `A draw — ${result}`;
  const winner = /^team ([A-Z]) wins?\b|^team ([A-Z])(?: and team [A-Z])* win/i.exec(result);
  const team = winner && (winner[1] || winner[2]);
  if (!team) return result;
  return team === yourTeam ? `You won — ${result}` : `You lost — ${result}`;
}

/**
 * The board's panel in the player's words: who is on offense ("You (B)", "Team A") and, on a
 * Midway kick return or interception, who carries it back ("You (A) return the ball"), not a
 * bare "Offense B".
 * @param {Board & {panel: string[][]}} board
 * @param {string | null} yourTeam
 * @returns {string[][]}
 */
export function panelInWords(board, yourTeam) {
  const who = (/** @type {string} */ team) =>
    team === yourTeam ? `You (${team})` : `Team ${team}`;
  const carrier = board.pieces.find((p) => p.flags.includes("holder"));
  /** @type {string[][]} */
  const rows = [];
  for (const row of board.panel) {
    const [key, value] = row;
    if (key !== "Offense" || !/^[A-Z]$/.test(value)) {
      rows.push(row); // with its hint, if the game gave one ([label, value, hint])
      continue;
    }
    const carrying = carrier ? String(carrier.team) : null;
    if (carrying && carrying !== value) {
      const returns = carrying === yourTeam ? "return" : "returns";
      rows.push([
        "Return",
        `${who(carrying)} ${returns} the ball (${who(value)} kicked or threw it)`,
      ]);
    } else rows.push(["On offense", who(value)]);
  }
  return rows;
}

/**
 * The banner for what the new log entries tell (null: none): a score's before anything else,
 * else the first entry's that has one. The server names each entry's banner from its events
 * (``Event.headline``), so no sentence is parsed here.
 * @param {Entry[]} entries the entries this update brought
 * @returns {string | null}
 */
export function bannerText(entries) {
  const scored = entries.find((e) => e.scored_at !== null && e.banner);
  const first = scored || entries.find((e) => e.banner);
  return first ? first.banner : null;
}

/**
 * The entry that scored, among those this update brought (the last, if several): the
 * position after it is held on screen before the next line-up is shown.
 * @param {Entry[]} entries
 * @returns {Entry | null}
 */
export function scoringEntry(entries) {
  const scored = entries.filter((e) => e.scored_at !== null);
  return scored.length ? scored[scored.length - 1] : null;
}

/**
 * The scoring position: the board the scoring move was made from, with that move's run and
 * the ball's last cell (the catch, the carrier's hex) applied, since the move that scores also
 * lines the next point up.
 * @param {Board} before the board at the step before the scoring move
 * @param {Entry} entry the scoring move
 * @returns {Board}
 */
export function scoringBoard(before, entry) {
  const told = entry.scored_at === null ? entry.events : entry.events.slice(0, entry.scored_at);
  const cells = told.join(" ").match(CELLS) || [];
  const run = /^([A-Z]\d+)-([a-z]\d{1,2})$/.exec(entry.action);
  const pieces = before.pieces.map((p) => (run && p.id === run[1] ? { ...p, cell: run[2] } : p));
  const landed = cells.length ? cells[cells.length - 1] : run ? run[2] : null;
  const ball =
    before.ball && landed
      ? { ...before.ball, cell: landed, held: pieces.some((p) => p.cell === landed) }
      : before.ball;
  return { ...before, pieces, ball };
}
