// The game page's side cards: catch odds (Huck + Monster), decision odds and the draft table
// (Midway), the dice, the move list. Each is drawn from what it is given; clicks go to the
// callbacks it is given.
import { die } from "./board.js";
import { saidFor } from "./hints.js";
import { el } from "./util.js";

/**
 * The rows of a board's panel row: label and value, and under them the game's hint for the
 * label in words when it gave one (["Up Call", "none yet", "An Up Call is …"]): a title
 * alone is never seen on a phone.
 * @param {string[]} row
 */
export function panelRows([label, value, hint]) {
  return [
    el("tr", {}, el("td", {}, label), el("td", {}, value)),
    hint
      ? el(
          "tr",
          { class: "row-hint" },
          el("td", { colspan: "2", "data-testid": "panel-hint" }, hint),
        )
      : null,
  ];
}

export function moveList(entries, current, onPick, game) {
  const list = el(
    "ol",
    { class: "moves", "data-testid": "move-list", "aria-label": "moves" },
    entries.map((e, i) =>
      el(
        "li",
        {
          "data-testid": "move",
          "data-step": i + 1,
          class: [e.by === "dice" ? "dice" : "", current === i + 1 ? "current" : ""].join(" "),
        },
        el(
          "button",
          {
            type: "button",
            onclick: () => onPick(i + 1),
            "aria-label": `show the position after move ${i + 1}`,
          },
          el("span", { class: "ply" }, `${i + 1}.`),
          el("span", { class: "by" }, e.by),
          el("code", {}, e.action),
          e.events.length
            ? el("span", { class: "words" }, e.events.join(" "))
            : saidFor(game, e.action)
              ? el("span", { class: "words said" }, saidFor(game, e.action))
              : null,
        ),
      ),
    ),
  );
  return list;
}

export function oddsCard(odds, ply, legal, selected, showOdds, onToggle) {
  const current = odds && odds.ply === ply && odds.targets.length && legal.length ? odds : null;
  const toggle = el("input", {
    type: "checkbox",
    checked: showOdds,
    "data-testid": "odds-toggle",
    "aria-label": "show the catch odds",
  });
  toggle.onchange = () => onToggle(toggle.checked);
  if (!current) return null;
  const bids = (t) =>
    [
      t.mark ? "a Mark" : "",
      t.intercepts ? `${t.intercepts} Intercept${t.intercepts > 1 ? "s" : ""}` : "",
      t.catch_marks ? `${t.catch_marks} catch Mark${t.catch_marks > 1 ? "s" : ""}` : "",
      t.challenges ? `${t.challenges} Challenge${t.challenges > 1 ? "s" : ""}` : "",
    ]
      .filter(Boolean)
      .join(", ") || "nobody bids";
  const shown = current.targets
    .filter((t) => !selected || t.receiver === selected)
    .sort((a, b) => b.p - a.p);
  return el(
    "div",
    { class: "card odds" },
    el("h2", {}, `Catch odds (a throw of ${current.targets[0].count})`),
    current.caveats.length
      ? el(
          "p",
          { class: "caveat", "data-testid": "odds-caveat" },
          `Not counted in these figures: ${current.caveats.join("; ")}.`,
        )
      : null,
    el("label", { class: "option" }, toggle, " show the exact odds"),
    showOdds
      ? [
          el(
            "p",
            { class: "muted" },
            selected
              ? `Targets for ${selected}, best first. `
              : "Every target, best first; choose a receiver to see his. ",
            "Exact, against the bidders the disc would meet on the path the engine chooses.",
          ),
          el(
            "ol",
            { class: "odds-list" },
            shown
              .slice(0, 12)
              .map((t) =>
                el(
                  "li",
                  { "data-action": t.action },
                  el(
                    "strong",
                    { "data-testid": "odds", title: t.exact },
                    `${(100 * t.p).toFixed(1)}%`,
                  ),
                  current.caveats.length
                    ? el("sup", { title: current.caveats.join("; ") }, "*")
                    : null,
                  ` ${t.receiver} at ${t.cell} — ${bids(t)}`,
                ),
              ),
          ),
          current.caveats.length
            ? el("p", { class: "muted" }, "* before the dice named above.")
            : null,
        ]
      : null,
  );
}

// Midway: the chance of each kind of outcome of the die a decision rolls.
export function outcomesCard(outcomes, ply, legal, selected, showOdds, onToggle) {
  // A pass is not priced (docs/web.md): its catch is rolled once both teams have moved.
  const passing = legal.some((l) => l.a.startsWith("pass "));
  const unpriced = passing
    ? el(
        "p",
        { class: "caveat", "data-testid": "pass-unpriced" },
        "A pass has no odds here: the catch is rolled after both teams have moved, by whoever is then in the ball's hex (fewer chances with defenders there), so no figure at the throw would be exact.",
      )
    : null;
  const current = outcomes && outcomes.ply === ply && outcomes.decisions.length && legal.length;
  if (!current) return unpriced ? el("div", { class: "card odds" }, unpriced) : null;
  const toggle = el("input", {
    type: "checkbox",
    checked: showOdds,
    "data-testid": "odds-toggle",
    "aria-label": "show the odds",
  });
  toggle.onchange = () => onToggle(toggle.checked);
  const shown = outcomes.decisions.filter((d) => !selected || d.action.includes(selected));
  return el(
    "div",
    { class: "card odds" },
    el("h2", {}, "Odds of your decisions"),
    el("label", { class: "option" }, toggle, " show the exact odds"),
    unpriced,
    showOdds
      ? [
          el(
            "p",
            { class: "muted" },
            "From the tables the engine rolls on, for the die each decision rolls next.",
          ),
          el(
            "ul",
            { class: "odds-list" },
            shown.slice(0, 12).map((d) =>
              el(
                "li",
                { "data-action": d.action },
                el("code", {}, d.action),
                " — ",
                d.outcomes.map((o, i) => [
                  i ? "; " : "",
                  el(
                    "strong",
                    { "data-testid": "odds", title: o.exact },
                    `${(100 * o.p).toFixed(1)}%`,
                  ),
                  ` ${o.what}`,
                ]),
              ),
            ),
          ),
        ]
      : null,
  );
}

export function draftCard(roster, legal, draftSort, onSort, send, pending) {
  const drafts = new Set(legal.filter((l) => /^draft \S+$/.test(l.a)).map((l) => l.a.slice(6)));
  if (!roster || !drafts.size) return null;
  const columns = [
    ["type", "type"],
    ["points", "cost"],
    ["size", "size"],
    ["mv", "move"],
    ["qb", "QB range"],
    ["rec", "receive"],
    ["magic", "ability"],
    ["good_at", "good at"],
  ];
  const rows = roster.types.slice().sort((a, b) => {
    const [x, y] = [a[draftSort.key], b[draftSort.key]];
    const order = typeof x === "number" ? x - y : String(x).localeCompare(String(y));
    return draftSort.down ? -order : order;
  });
  const team = roster.teams.find((t) => t.team === roster.drafting) || roster.teams[0];
  const sortBy = (key) => onSort({ key, down: draftSort.key === key && !draftSort.down });
  return el(
    "div",
    { class: "card", "data-testid": "draft" },
    el("h2", {}, `Draft for team ${team.team}`),
    el(
      "p",
      { "data-testid": "points-left" },
      `${team.points} of ${roster.max_points} points left, ${team.slots} players to pick.`,
      team.picked.length ? ` Drafted: ${team.picked.join(", ")}.` : "",
    ),
    el(
      "div",
      { class: "table-scroll" },
      el(
        "table",
        { class: "draft" },
        el(
          "tr",
          {},
          columns.map(([key, label]) =>
            el(
              "th",
              {},
              el(
                "button",
                {
                  type: "button",
                  class: "sort",
                  onclick: () => sortBy(key),
                  "aria-label": `sort by ${label}`,
                },
                label,
                draftSort.key === key ? (draftSort.down ? " ▼" : " ▲") : "",
              ),
            ),
          ),
          el("th", {}),
        ),
        rows.map((t) =>
          el(
            "tr",
            { class: drafts.has(t.type) ? "" : "unaffordable" },
            el("td", {}, t.type),
            el("td", {}, t.points),
            el("td", {}, t.size),
            el("td", {}, t.mv),
            el("td", {}, t.qb),
            el("td", {}, t.rec >= 0 ? `+${t.rec}` : t.rec),
            el("td", {}, t.magic || "—"),
            el("td", { class: "good-at" }, t.good_at || ""),
            el(
              "td",
              {},
              el(
                "button",
                {
                  onclick: () => send(`draft ${t.type}`),
                  disabled: !drafts.has(t.type) || pending !== null,
                  "data-action": `draft ${t.type}`,
                  title: drafts.has(t.type) ? "" : "would leave too few points for a full team",
                },
                "draft",
              ),
            ),
          ),
        ),
      ),
    ),
  );
}

export function diceCard(log, seenDice) {
  const rolls = log
    .filter((e) => e.by === "dice")
    .slice(-4)
    .reverse();
  if (!rolls.length) return null;
  return el(
    "div",
    { class: "card", "data-testid": "dice" },
    el("h2", {}, "Dice"),
    el(
      "ul",
      { class: "dice-list" },
      rolls.map((e) => {
        const key = `${e.ply}`;
        const fresh = !seenDice.has(key);
        seenDice.add(key);
        return el("li", {}, die(e.action, fresh), el("span", {}, e.events.join(" ")));
      }),
    ),
  );
}
