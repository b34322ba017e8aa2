// State deltas (docs/web.md, web/delta.py): the changes that turn the state message a socket
// holds into the next one. Returns a new message; the one held is left as it was (the page
// animates from the previous board).
export function applyDelta(message, ops) {
  const next = structuredClone(message);
  for (const op of ops) {
    const path = op[0];
    let parent = next;
    for (const key of path.slice(0, -1)) parent = parent[key];
    const last = path[path.length - 1];
    if (op.length === 2) parent[last] = op[1];
    else parent[last] = parent[last].slice(op[1]).concat(op[2]);
  }
  return next;
}
