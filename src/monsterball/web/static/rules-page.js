// The rules in detail (/rules/GAME): the rulebook's rules by id, from a small Markdown
// subset drawn as DOM nodes (never parsed as HTML).
import { el, errorPage } from "./util.js";

function inline(text) {
  const out = [];
  const pattern = /(`[^`]+`|\*\*[^*]+\*\*|\*[^*]+\*|\[[^\]]+\]\([^)]+\))/g;
  let at = 0;
  for (const match of text.matchAll(pattern)) {
    out.push(text.slice(at, match.index));
    const token = match[0];
    if (token.startsWith("`")) out.push(el("code", {}, token.slice(1, -1)));
    else if (token.startsWith("**")) out.push(el("strong", {}, token.slice(2, -2)));
    else if (token.startsWith("*")) out.push(el("em", {}, token.slice(1, -1)));
    else {
      const [, label, href] = /\[([^\]]+)\]\(([^)]+)\)/.exec(token);
      out.push(href.startsWith("#") ? el("a", { href }, label) : label); // repository paths do not resolve here
    }
    at = match.index + token.length;
  }
  out.push(text.slice(at));
  return out;
}

const slug = (text) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9 -]/g, "")
    .trim()
    .replace(/\s+/g, "-");

export function markdown(text) {
  const blocks = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; ) {
    const line = lines[i];
    if (!line.trim()) {
      i++;
      continue;
    }
    const heading = /^(#{1,4})\s+(.*)$/.exec(line);
    if (heading) {
      const level = Math.min(heading[1].length + 1, 5);
      blocks.push(el(`h${level}`, { id: slug(heading[2]) }, inline(heading[2])));
      i++;
    } else if (line.startsWith("|")) {
      const rows = [];
      while (i < lines.length && lines[i].startsWith("|")) rows.push(lines[i++]);
      const cells = (row) =>
        row
          .replace(/^\||\|$/g, "")
          .split(/(?<!\\)\|/)
          .map((c) => c.trim());
      const head = cells(rows[0]);
      const body = rows.slice(2).map(cells);
      blocks.push(
        el(
          "div",
          { class: "table-scroll" },
          el(
            "table",
            { class: "rules" },
            el(
              "thead",
              {},
              el(
                "tr",
                {},
                head.map((h) => el("th", {}, inline(h))),
              ),
            ),
            el(
              "tbody",
              {},
              body.map((r) =>
                el(
                  "tr",
                  { id: /^[A-Z]+-[A-Z0-9-]+$/.test(r[0]) ? r[0] : null },
                  r.map((c) => el("td", {}, inline(c))),
                ),
              ),
            ),
          ),
        ),
      );
    } else if (/^\s*([-*]|\d+\.)\s/.test(line)) {
      const items = [];
      while (i < lines.length && /^\s*([-*]|\d+\.)\s/.test(lines[i])) {
        let item = lines[i++].replace(/^\s*([-*]|\d+\.)\s/, "");
        while (
          i < lines.length &&
          /^\s{2,}\S/.test(lines[i]) &&
          !/^\s*([-*]|\d+\.)\s/.test(lines[i])
        )
          item += ` ${lines[i++].trim()}`;
        items.push(el("li", {}, inline(item)));
      }
      blocks.push(el(/^\s*\d/.test(line) ? "ol" : "ul", {}, items));
    } else if (line.startsWith("```")) {
      const code = [];
      i++;
      while (i < lines.length && !lines[i].startsWith("```")) code.push(lines[i++]);
      i++;
      blocks.push(el("pre", {}, code.join("\n")));
    } else {
      const para = [];
      while (i < lines.length && lines[i].trim() && !/^(#|\||```|\s*([-*]|\d+\.)\s)/.test(lines[i]))
        para.push(lines[i++]);
      blocks.push(el("p", {}, inline(para.join(" "))));
    }
  }
  return blocks;
}

export async function rulesPage(main, where, game) {
  let text;
  try {
    const response = await fetch(`/api/rules/${encodeURIComponent(game)}`);
    if (!response.ok) throw new Error((await response.json()).message);
    text = await response.text();
  } catch (error) {
    errorPage(main, "No rules page", error.message);
    return;
  }
  where.textContent = `how to play · ${game}`;
  document.title = `How to play ${game} — monsterball`;
  main.replaceChildren(
    el(
      "article",
      { class: "rules-page card", "data-testid": "rules" },
      el(
        "p",
        {},
        el("a", { href: "/" }, "← lobby"),
        " · The rules as this program plays them: each rule's id, the rulebook's words, and the rulings where the book is silent.",
      ),
      markdown(text),
    ),
  );
  if (location.hash) document.getElementById(location.hash.slice(1))?.scrollIntoView();
}
