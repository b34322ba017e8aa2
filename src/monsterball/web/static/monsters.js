// Midway counters that say what they are (issue 32): each monster type gets a short code of
// two letters, the same in every game (worked out from the whole list of types, in its
// order), drawn on the counter with the player's number and explained in the legend.
// Pure: unit-tested by tests/js/monsters.test.js, checked strictly.

/**
 * Two-letter codes, unique over `types`: the first letter and the next ("Or" orc), else the
 * first and last ("Ge" gnome beside "Gn" gnoll), else the first and any other; the initials of
 * a two-word type ("SG" storm-giant).
 * @param {string[]} types every type of the game, in the chart's order
 * @returns {Record<string, string>}
 */
export function typeCodes(types) {
  /** @type {Record<string, string>} */
  const codes = {};
  const taken = new Set();
  for (const type of types) {
    const words = type.split(/[-\s]+/).filter(Boolean);
    const letters = type.replace(/[^a-z]/gi, "");
    const first = letters.charAt(0).toUpperCase();
    const tries = [
      ...(words.length > 1
        ? [
            words
              .map((w) => w.charAt(0).toUpperCase())
              .join("")
              .slice(0, 2),
          ]
        : []),
      first + letters.charAt(1).toLowerCase(),
      first + letters.charAt(letters.length - 1).toLowerCase(),
      ...[...letters.slice(2, -1)].map((c) => first + c.toLowerCase()),
      ...[...Array(types.length + 1).keys()].map((n) => first + String(n)),
    ];
    const code = tries.find((c) => c.length === 2 && !taken.has(c)) || type;
    taken.add(code);
    codes[type] = code;
  }
  return codes;
}

/**
 * Each drafted player's code and type, from the roster the game page loads (null before the
 * draft).
 * @param {{types: {type: string}[], players: Record<string, string>} | null} roster
 * @returns {Map<string, {code: string, type: string}>}
 */
export function pieceKinds(roster) {
  const kinds = new Map();
  if (!roster) return kinds;
  const codes = typeCodes(roster.types.map((t) => t.type));
  for (const [id, type] of Object.entries(roster.players))
    if (codes[type]) kinds.set(id, { code: codes[type], type });
  return kinds;
}
