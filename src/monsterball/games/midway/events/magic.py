"""Magic: mirror images, invisibility, shape-changers, were-forms and the lightning bolt.
Sentences never name a hidden hex: mirror-image and invisibility events are written for
both coaches."""

from __future__ import annotations

from dataclasses import dataclass

from monsterball.core.actions import Event
from monsterball.games.midway.actions import player_name


@dataclass(frozen=True, slots=True)
class SpellCast(Event):
    caster: int
    spell: str  # mirror or invisible

    def describe(self) -> str:
        name = player_name(self.caster)
        if self.spell == "invisible":
            return f"{name} turns invisible: he moves unseen and reappears later."
        return f"{name} casts mirror image: copies of him appear to fool the other team."


@dataclass(frozen=True, slots=True)
class MirrorRolled(Event):
    roll: int
    images: int  # 0: one blank counter and no image (option mirror_count=literal)

    def describe(self) -> str:
        if not self.images:
            return f"The mirror image die shows {self.roll}: one blank counter, and no image."
        s = "s" if self.images > 1 else ""
        return f"The mirror image die shows {self.roll}: {self.images} mirror image{s}."

    def in_brief(self) -> str:
        return f"{self.images} images"


@dataclass(frozen=True, slots=True)
class ImagePlaced(Event):
    cell: str

    def describe(self) -> str:
        return f"A mirror image appears on {self.cell}."


@dataclass(frozen=True, slots=True)
class CountersStand(Event):
    count: int

    def describe(self) -> str:
        return f"{self.count} blank counters stand on the field; only one is the real player."


@dataclass(frozen=True, slots=True)
class ImageTouched(Event):
    """A player reaches a counter that was only an image: by a tackle (``tackled``) or by
    moving onto it (he can do nothing more this phase)."""

    player: int
    cell: str
    tackled: bool

    def describe(self) -> str:
        name = player_name(self.player)
        if self.tackled:
            return f"{name} tackles the counter on {self.cell}: only a mirror image."
        return (
            f"The counter on {self.cell} was only a mirror image; {name} can do nothing more "
            "this phase."
        )


@dataclass(frozen=True, slots=True)
class ImageLeft(Event):
    cell: str

    def describe(self) -> str:
        return f"A mirror image leaves play at {self.cell}."


@dataclass(frozen=True, slots=True)
class CountersShifted(Event):
    direction: str

    def describe(self) -> str:
        return f"The mirror-image counters move {self.direction.upper()}."


_MIRROR_END = {
    "expired": "The mirror image spell runs out.",
    "tackle": "{p} comes out from among his counters to tackle.",
    "found": "{p} finds the real ball carrier on {cell}.",
    "touched": "{p} touches the real {caster}: the images vanish.",
    "contact": "{caster} comes out from among his counters on {cell} to make contact.",
    "catch": "{caster} comes out from among his counters to catch the pass.",
    "intercept": "{caster} comes out from among his counters to intercept.",
}


@dataclass(frozen=True, slots=True)
class MirrorEnded(Event):
    how: str  # a key of the sentences above
    player: int = -1
    caster: int = -1
    cell: str = ""

    def describe(self) -> str:
        p = player_name(self.player) if self.player >= 0 else ""
        caster = player_name(self.caster) if self.caster >= 0 else ""
        return _MIRROR_END[self.how].format(p=p, caster=caster, cell=self.cell)


@dataclass(frozen=True, slots=True)
class MovedUnseen(Event):
    def describe(self) -> str:
        return "The invisible player moves unseen."


@dataclass(frozen=True, slots=True)
class Reappeared(Event):
    player: int
    cell: str
    why: str = ""  # "" (at the start of a phase), intercept or block

    def describe(self) -> str:
        why = f" to {self.why}" if self.why else ""
        return f"{player_name(self.player)} reappears on {self.cell}{why}."


@dataclass(frozen=True, slots=True)
class Changed(Event):
    player: int
    into: str  # "" when he changes back

    def describe(self) -> str:
        if not self.into:
            return f"{player_name(self.player)} changes back."
        return f"{player_name(self.player)} changes into a {self.into}."


@dataclass(frozen=True, slots=True)
class FormTaken(Event):
    player: int
    form: str  # were or human

    def describe(self) -> str:
        return f"{player_name(self.player)} takes {self.form} form."


@dataclass(frozen=True, slots=True)
class BoltStruck(Event):
    caster: int
    target: str  # "" when the bolt strikes the ball dead

    def describe(self) -> str:
        name = player_name(self.caster)
        if not self.target:
            return f"{name}'s lightning bolt strikes the ball dead: the play is over."
        return f"{name}'s lightning bolt stuns {self.target}: he is out for the next play."
