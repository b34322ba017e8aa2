"""The rules documents (docs/rules/<game>.md: every rule id, status and ruling), for the
terminal's `monsterball rules GAME --text` and the web app's "How to play" pages.

A wheel carries them as ``monsterball/rules_docs/`` (pyproject's force-include); a source
checkout reads docs/rules/ directly.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from pathlib import Path

RULE_FILES = {
    "huck-monster": "huck-monster.md",
    "midway": "monsters-of-the-midway.md",
    "paper-ultimate": "paper-ultimate.md",
}


@cache
def rules_document(game: str) -> str | None:
    """The rules document of the game with this id, or None when it is not shipped."""
    name = RULE_FILES.get(game)
    if name is None:
        return None
    packaged = resources.files("monsterball").joinpath("rules_docs") / name
    if packaged.is_file():
        return packaged.read_text(encoding="utf-8")
    source = Path(__file__).resolve().parents[2] / "docs" / "rules" / name
    return source.read_text(encoding="utf-8") if source.is_file() else None
