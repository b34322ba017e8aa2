"""The rules documents (docs/rules/<game>.md: every rule id, status and ruling), for the
terminal's `monsterball rules GAME --text` and the web app's "How to play" pages.

A wheel carries them as ``monsterball/rules_docs/`` (pyproject's force-include); a source
checkout reads docs/rules/ directly. Which file is a game's, its spec says
(``spec.docs.rules_file``).
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path


@cache
def rules_document(game: str) -> str | None:
    """The rules document of the game with this id (its spec's ``docs.rules_file``), or
    None when it has none or it is not shipped."""
    from monsterball.games import get_game  # here: the CLI starts without the games

    name = get_game(game).docs.rules_file
    if name is None:
        return None
    from importlib import resources  # here: it costs a tenth of a second at start-up

    packaged = resources.files("monsterball").joinpath("rules_docs") / name
    if packaged.is_file():
        return packaged.read_text(encoding="utf-8")
    source = Path(__file__).resolve().parents[3] / "docs" / "rules" / name
    return source.read_text(encoding="utf-8") if source.is_file() else None


RULING_ID = re.compile(r"\b[A-Z]{2,4}-R\d+[a-z]?\b")
_ENTRY_START = re.compile(r"^(?:- )?\*\*([A-Z]{2,4}(?:-[A-Z0-9]+)+)\b")
_PATH = re.compile(r"`((?:\.\./)*(?:src|tests|docs|scripts|shared)/[^`]*)`")


def rule_ids(game: str) -> list[str]:
    """Every rule and ruling id the document of ``game`` defines (table rows, rulings)."""
    document = rules_document(game) or ""
    ids = [row[0] for row in _rows(document)]
    return ids + [entry_id for entry_id, _ in _rulings(document)]


def rule_entry(game: str, rule_id: str) -> str | None:
    """What the rules document says about one id, as Markdown, for ``rules --id``: a rule's
    row (the rulebook's words, its status, what the engine does) and the full text of each
    ruling it rests on; a ruling's text and the rules that rest on it. No repository paths
    (a player reads this, not a developer). None when the document has no such id."""
    document = rules_document(game)
    if document is None:
        return None
    wanted = rule_id.strip().upper()
    rulings = dict(_rulings(document))
    parts: list[str] = []
    for cells in _rows(document):
        if cells[0].upper() != wanted:
            continue
        words, status, engine = [*cells, "", "", ""][1:4]
        parts.append(f"**{cells[0]}** ({status})\n\nRulebook: {words}\n\nEngine: {engine}")
        for cited in dict.fromkeys(RULING_ID.findall(" ".join(cells[1:]))):
            if cited in rulings and cited != wanted:
                parts.append(rulings[cited])
    if wanted in rulings:
        parts.append(rulings[wanted])
        resting = [c[0] for c in _rows(document) if wanted in RULING_ID.findall(" ".join(c[2:]))]
        if resting:
            parts.append(f"Rules that rest on {wanted}: {', '.join(resting)}.")
    if not parts:
        return None
    return "\n\n".join(_without_paths(part) for part in parts)


def _rows(document: str) -> list[list[str]]:
    """The cells of every table row whose first cell is a rule id."""
    rows = []
    for line in document.splitlines():
        if not line.startswith("|"):
            continue
        cells = [cell.strip() for cell in line.strip().strip("|").split(" | ")]
        if re.fullmatch(r"[A-Z]{2,4}(?:-[A-Z0-9]+)+", cells[0]):
            rows.append(cells)
    return rows


def _rulings(document: str) -> list[tuple[str, str]]:
    """Each ruling's id and whole text: a paragraph or list item opening ``**XX-Rn``."""
    out: list[tuple[str, str]] = []
    current: list[str] | None = None
    for line in [*document.splitlines(), ""]:
        start = _ENTRY_START.match(line)
        ends = not line.strip() or line.startswith("#") or start is not None
        if current is not None and ends:
            match = _ENTRY_START.match(current[0])
            assert match is not None
            text = " ".join(part.strip() for part in current).removeprefix("- ")
            out.append((match.group(1), text))
            current = None
        if start is not None and RULING_ID.fullmatch(start.group(1)):
            current = [line]
        elif current is not None:
            current.append(line)
    return out


def _without_paths(text: str) -> str:
    """``(tests: `tests/x.py`)`` dropped, any other repository path cut to its file name."""
    text = re.sub(r"\s*\((?:tests?: )?`(?:tests|src)/[^`]*`(?:[,;] `[^`]*`)*\)", "", text)
    return _PATH.sub(lambda m: f"`{m.group(1).rstrip('/').rsplit('/', 1)[-1]}`", text)
