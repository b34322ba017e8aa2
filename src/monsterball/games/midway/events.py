"""What happens in a game of Monsters of the Midway, as records in the rulebook's words.

One event type carries a ``what`` tag (for tests and UIs) and a sentence. Sentences never
name a hidden hex: mirror-image and invisibility events are written for both coaches.
"""

from __future__ import annotations

from dataclasses import dataclass

from monsterball.core.actions import Event


@dataclass(frozen=True, slots=True)
class Happened(Event):
    what: str
    text: str

    def describe(self) -> str:
        return self.text
