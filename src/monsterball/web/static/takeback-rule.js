// Whether the page offers "Take back" (docs/web.md, "Takeback"): the player's own last move,
// in a game being played unrated, never a die's or another seat's. The server decides; this
// only keeps the button away where it would surely be refused.

/**
 * @typedef {{name: string, seat: number, kind: string}} ChairInfo
 * @typedef {{by: string}} LogLine
 * @typedef {{you: string | null, chairs: ChairInfo[], log: LogLine[],
 *   game: {status: string, rated: boolean, mode: string}}} TakebackState
 */

/**
 * @param {TakebackState} state
 * @returns {boolean}
 */
export function mayTakeBack(state) {
  const { game, chairs, log, you } = state;
  if (!you || game.status !== "playing" || game.rated || !log.length) return false;
  const by = chairs.find((c) => c.name === log[log.length - 1].by);
  const me = chairs.find((c) => c.name === you);
  if (!by || !me || by.kind !== "human") return false; // the dice, a bot
  return game.mode === "hotseat" || by.seat === me.seat;
}
