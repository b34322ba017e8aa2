"""What happens in a game of Monsters of the Midway, as typed records told in plain sentences.

One dataclass per kind of happening; each keeps the exact numbers (the die, the modifier, the
total, what was needed) as fields and says them in words a newcomer follows. ``outcome()`` is
a die's result in a few words, for the odds the page lists. Sentences never name a hidden
hex: mirror-image and invisibility events are written for both coaches.
"""

from __future__ import annotations

from dataclasses import dataclass

from monsterball.core.actions import Event
from monsterball.games.midway.actions import player_name
from monsterball.games.midway.options import TEAM_NAMES


def _team(team: int) -> str:
    return f"team {TEAM_NAMES[team]}"


def _Team(team: int) -> str:
    return f"Team {TEAM_NAMES[team]}"


def _score(score: tuple[int, int]) -> str:
    return f"A {score[0]} - B {score[1]}"


def _modified(roll: int, modifier: int, total: int, why: str) -> str:
    """'rolls a 2, minus 1 for size: 1' (the chart's ends hold a total beyond them)."""
    if modifier == 0:
        said = f"rolls a {roll}, with no modifier"
    else:
        sign = "plus" if modifier > 0 else "minus"
        said = f"rolls a {roll}, {sign} {abs(modifier)} for {why}, making {roll + modifier}"
    if total != roll + modifier:
        said += f", read as {total} (the chart's end)"
    return said


def _needed(roll: int, need: int) -> str:
    """'rolls a 4 and needed 5 or less' (a need of 6 or more cannot fail, below 1 cannot
    succeed)."""
    if need >= 6:
        return f"rolls a {roll}; {need} or less was needed, so any roll does"
    if need < 1:
        return f"rolls a {roll}; {need} or less was needed, so no roll does"
    return f"rolls a {roll} and needed {need} or less"


# -- the draft and the toss --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Drafted(Event):
    team: int
    player: int
    kind: str

    def describe(self) -> str:
        return f"{_Team(self.team)} drafts {player_name(self.player)}, a {self.kind}."


@dataclass(frozen=True, slots=True)
class RosterComplete(Event):
    team: int
    roster: tuple[str, ...]

    def describe(self) -> str:
        team = TEAM_NAMES[self.team]
        return (
            f"Team {team}'s roster is complete: {', '.join(self.roster)}. To play it again, "
            f"paste {','.join(self.roster)} into a new game's saved roster for team {team}."
        )


@dataclass(frozen=True, slots=True)
class TossWon(Event):
    team: str  # the team's letter, as the coin shows it

    def describe(self) -> str:
        return f"Team {self.team} wins the coin toss and chooses first."


@dataclass(frozen=True, slots=True)
class TossChosen(Event):
    team: int
    choice: str  # receive or kickoff

    def describe(self) -> str:
        if self.choice == "receive":
            return f"{_Team(self.team)} chooses to receive the kickoff."
        return f"{_Team(self.team)} chooses to kick off."


@dataclass(frozen=True, slots=True)
class EndChosen(Event):
    team: int
    end: str  # north or south
    wind: int  # the team with the wind at its back

    def describe(self) -> str:
        return (
            f"{_Team(self.team)} defends the {self.end} end zone; {_team(self.wind)} has the "
            "wind at its back (its kicks fly one hex further)."
        )


# -- lining up ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class KickoffLinedUp(Event):
    play: int
    team: int
    cell: str

    def describe(self) -> str:
        return f"Play {self.play}: {_team(self.team)} kicks off from {self.cell}."


@dataclass(frozen=True, slots=True)
class ScrimmageLinedUp(Event):
    play: int
    team: int
    down: int
    cell: str

    def describe(self) -> str:
        return (
            f"Play {self.play}: {_team(self.team)} has the ball, down {self.down} of 4, "
            f"on {self.cell}."
        )


@dataclass(frozen=True, slots=True)
class ConversionLinedUp(Event):
    team: int

    def describe(self) -> str:
        return f"{_Team(self.team)} tries a two-point conversion: one play to reach the end zone."


@dataclass(frozen=True, slots=True)
class StunnedReturn(Event):
    team: int

    def describe(self) -> str:
        return (
            f"{_Team(self.team)} has nobody fit to play, so its players injured for a play "
            "come back."
        )


@dataclass(frozen=True, slots=True)
class FormationSet(Event):
    team: int
    formation: str  # kick, receive, offense or defense

    def describe(self) -> str:
        return (
            f"{_Team(self.team)} places the rest of its players in its {self.formation} formation."
        )


@dataclass(frozen=True, slots=True)
class Shifted(Event):
    player: int
    cell: str
    motion: bool  # in motion (one player) rather than a formation shift

    def describe(self) -> str:
        if self.motion:
            return f"{player_name(self.player)} goes in motion to {self.cell} before the snap."
        return f"{player_name(self.player)} shifts to {self.cell} before the snap."


@dataclass(frozen=True, slots=True)
class Snapped(Event):
    player: int

    def describe(self) -> str:
        return f"The ball is snapped to {player_name(self.player)}: the play is on."


@dataclass(frozen=True, slots=True)
class FieldGoalCalled(Event):
    team: int
    announced: bool  # announced before the snap, rather than kicked now

    def describe(self) -> str:
        if self.announced:
            return f"{_Team(self.team)} announces a field goal attempt for this play."
        return f"{_Team(self.team)} kicks for a field goal."


# -- kicks ----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class KickedOff(Event):
    team: int
    cell: str

    def describe(self) -> str:
        return f"{_Team(self.team)} kicks off, aiming at {self.cell}."


@dataclass(frozen=True, slots=True)
class OnsideTried(Event):
    team: int

    def describe(self) -> str:
        return f"{_Team(self.team)} tries an onside kick: a short kick it may recover itself."


@dataclass(frozen=True, slots=True)
class OnsideRolled(Event):
    hexes: int
    cell: str

    def describe(self) -> str:
        return f"The onside kick rolls {self.hexes} hexes, to {self.cell}."

    def in_brief(self) -> str:
        return f"the onside kick rolls to {self.cell}"


@dataclass(frozen=True, slots=True)
class KickLanded(Event):
    roll: int
    cell: str

    def describe(self) -> str:
        return (
            f"The kick drifts: the direction die shows {self.roll}, and the ball comes down "
            f"on {self.cell}."
        )

    def in_brief(self) -> str:
        return f"the kick comes down on {self.cell}"


@dataclass(frozen=True, slots=True)
class Punted(Event):
    hexes: int
    wind: int  # 1: the wind carries it one hex further
    toward: str

    def describe(self) -> str:
        wind = ", plus 1 for the wind" if self.wind else ""
        return f"The punt flies {self.hexes} hexes{wind}, toward {self.toward}."

    def in_brief(self) -> str:
        return f"the punt flies {self.hexes + self.wind} hexes toward {self.toward}"


@dataclass(frozen=True, slots=True)
class FreeKickPunted(Event):
    team: int

    def describe(self) -> str:
        return f"{_Team(self.team)} punts its free kick."


@dataclass(frozen=True, slots=True)
class PuntCarried(Event):
    hexes: int

    def describe(self) -> str:
        return f"The punt carries {self.hexes} more hexes before it comes down."

    def in_brief(self) -> str:
        return f"the punt carries {self.hexes} more hexes"


@dataclass(frozen=True, slots=True)
class PuntBounced(Event):
    phases: int

    def describe(self) -> str:
        return f"The punt hits the ground and bounces on for {self.phases} phases."

    def in_brief(self) -> str:
        return f"the punt bounces {self.phases} phases"


@dataclass(frozen=True, slots=True)
class KickBlocked(Event):
    blocker: int
    kick: str  # punt or kick

    def describe(self) -> str:
        return f"{player_name(self.blocker)} blocks the {self.kick}! The ball is loose."


# -- the ball in the air and on the ground -------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PassThrown(Event):
    thrower: int
    cell: str

    def describe(self) -> str:
        return f"{player_name(self.thrower)} throws a pass to {self.cell}."


@dataclass(frozen=True, slots=True)
class HandedOff(Event):
    giver: int
    taker: int

    def describe(self) -> str:
        return f"{player_name(self.giver)} hands the ball to {player_name(self.taker)}."


_CATCHES = {
    "pass": "to catch the pass",
    "intercept": "to intercept the pass",
    "kick": "to catch the kick",
    "punt": "to catch the punt",
}


@dataclass(frozen=True, slots=True)
class CatchTried(Event):
    """A catch or an interception: the d6 must be at most ``need`` (Pass Reception table,
    which counts the opponents in the hex and the catcher's receiving modifier)."""

    player: int
    purpose: str  # pass, intercept, kick or punt
    roll: int
    need: int
    caught: bool

    def describe(self) -> str:
        if self.caught:
            verdict = "caught" if self.purpose != "intercept" else "caught: an interception"
        else:
            verdict = "missed" + ("" if self.purpose in ("pass", "intercept") else ": a fumble")
        return (
            f"{player_name(self.player)} tries {_CATCHES[self.purpose]}: he "
            f"{_needed(self.roll, self.need)}: {verdict}."
        )

    def in_brief(self) -> str:
        return "caught" if self.caught else "missed"


@dataclass(frozen=True, slots=True)
class LateralDropped(Event):
    def describe(self) -> str:
        return (
            "Nobody catches the lateral (a pass sideways or back): it is a fumble, the ball "
            "is loose."
        )


@dataclass(frozen=True, slots=True)
class PassIncomplete(Event):
    def describe(self) -> str:
        return (
            "The pass is incomplete: the play is over and the ball goes back to where it was "
            "snapped."
        )


@dataclass(frozen=True, slots=True)
class KickUncaught(Event):
    def describe(self) -> str:
        return "Nobody tries to catch the kickoff: it is a loose ball."


@dataclass(frozen=True, slots=True)
class Scramble(Event):
    cell: str

    def describe(self) -> str:
        return f"The players on {self.cell} scramble for the loose ball."


@dataclass(frozen=True, slots=True)
class RecoveryTried(Event):
    """Fumble Recovery table: the more players in the hex, the smaller the roll needed."""

    player: int
    roll: int
    need: int
    crowd: int  # players in the hex

    @property
    def recovered(self) -> bool:
        return self.roll <= self.need

    def describe(self) -> str:
        verdict = "he has the ball" if self.recovered else "missed"
        return (
            f"{player_name(self.player)} dives for the loose ball: he "
            f"{_needed(self.roll, self.need)} with {self.crowd} in the hex: {verdict}."
        )

    def in_brief(self) -> str:
        return "recovered" if self.recovered else "missed"


@dataclass(frozen=True, slots=True)
class Scattered(Event):
    roll: int
    cell: str

    def describe(self) -> str:
        return (
            f"The loose ball bounces: the direction die shows {self.roll}, and the ball stops "
            f"on {self.cell}."
        )

    def in_brief(self) -> str:
        return f"the ball stops on {self.cell}"


_OUT = {
    "bounce": "The loose ball bounces out of bounds: the play is over.",
    "end-line": "The loose ball goes out over the end line: the play is over.",
    "punt": "The punt goes out of bounds: the play is over.",
    "kickoff": (
        "The kickoff lands out of bounds: a 5-yard penalty, and the kicking team kicks again."
    ),
}


@dataclass(frozen=True, slots=True)
class BallOut(Event):
    how: str  # bounce, end-line, punt or kickoff

    def describe(self) -> str:
        return _OUT[self.how]


@dataclass(frozen=True, slots=True)
class SteppedOut(Event):
    player: int

    def describe(self) -> str:
        return f"{player_name(self.player)} steps out of bounds with the ball: the play is over."


_TOUCHBACK = {
    "punt": "The punt goes out of the end zone: a touchback.",
    "deep": "The kickoff sails beyond the end zone: a touchback.",
    "kickoff": "The kickoff goes beyond the end zone: a touchback.",
}


@dataclass(frozen=True, slots=True)
class Touchback(Event):
    """A touchback (``how``: punt, deep, kickoff, downed) or where it puts the ball
    (``how`` "spot": ``team`` starts at its own 20)."""

    how: str
    player: int = -1  # downed: the carrier
    team: int = -1  # spot: the team that gets the ball

    def describe(self) -> str:
        if self.how == "downed":
            return f"{player_name(self.player)} downs the ball in his end zone: a touchback."
        if self.how == "spot":
            return f"Touchback: {_team(self.team)} takes the ball at its own 20."
        return _TOUCHBACK[self.how]


# -- contact --------------------------------------------------------------------------------------

_BLOCK_MEANS = {
    "blocker injured for game": "{b} is out for the rest of the game",
    "blocker injured for next play": "{b} is out for the next play",
    "blocker defeated": "the block fails",
    "neutralize": "{d} may not move in his next phase",
    "successful block": "{d} may not move in his next phase nor tackle until it is over",
    "defender injured for next play": "{d} is out for the next play",
    "defender injured for game": "{d} is out for the rest of the game",
}


@dataclass(frozen=True, slots=True)
class BlockRolled(Event):
    """Block Results table: d6 plus the size modifier (blocker's size against the
    defender's)."""

    blocker: int
    defender: int
    roll: int
    modifier: int
    total: int
    result: str  # the table's words

    def describe(self) -> str:
        b, d = player_name(self.blocker), player_name(self.defender)
        means = _BLOCK_MEANS.get(self.result, "").format(b=b, d=d)
        return (
            f"{b} blocks {d}: he {_modified(self.roll, self.modifier, self.total, 'size')}: "
            f"{self.result}" + (f" ({means})." if means else ".")
        )

    def in_brief(self) -> str:
        return self.result


@dataclass(frozen=True, slots=True)
class SecondBlockOff(Event):
    defender: int

    def describe(self) -> str:
        return f"The second block on {player_name(self.defender)} is called off."


_TACKLE_MEANS = {
    "ball carrier injured for game": "{c} is out for the rest of the game; the play is over",
    "ball carrier injured for next play": "{c} is out for the next play; the play is over",
    "ball carrier tackled": "the play is over",
    "ball carrier slowed (-2)": "{c} has 2 fewer hexes to move",
    "ball carrier slowed (-1)": "{c} has 1 fewer hex to move",
    "miss": "{c} runs on",
    "tackler injured for next play": "{t} is out for the next play",
    "tackler injured for game": "{t} is out for the rest of the game",
}


@dataclass(frozen=True, slots=True)
class TackleRolled(Event):
    """Tackle Results table: d6 plus the size modifier (carrier's size against the
    tackler's; a treant carrier counts 1 less)."""

    tackler: int
    carrier: int
    roll: int
    modifier: int
    total: int
    result: str  # the table's words

    def describe(self) -> str:
        t, c = player_name(self.tackler), player_name(self.carrier)
        means = _TACKLE_MEANS.get(self.result, "").format(t=t, c=c)
        return (
            f"{t} tackles {c}: he {_modified(self.roll, self.modifier, self.total, 'size')}: "
            f"{self.result}" + (f" ({means})." if means else ".")
        )

    def in_brief(self) -> str:
        return self.result


@dataclass(frozen=True, slots=True)
class EttinTurns(Event):
    ettin: int
    mate: int

    def describe(self) -> str:
        return (
            f"The ettin {player_name(self.ettin)} turns on his own teammate "
            f"{player_name(self.mate)}!"
        )


@dataclass(frozen=True, slots=True)
class EttinAttacked(Event):
    ettin: int
    mate: int
    tackle: bool  # tackles the carrier, rather than blocks
    roll: int
    modifier: int
    total: int
    succeeded: bool

    def describe(self) -> str:
        what = "tackles" if self.tackle else "blocks"
        said = _modified(self.roll, self.modifier, self.total, "size")
        mate = player_name(self.mate)
        verdict = (
            f"it succeeds; {mate} can do nothing this phase"
            if self.succeeded
            else f"it fails; {mate} shrugs it off"
        )
        return f"{player_name(self.ettin)} {what} {mate}: he {said}: {verdict}."

    def in_brief(self) -> str:
        return "it succeeds" if self.succeeded else "it fails"


# -- moving ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Moved(Event):
    player: int
    start: str
    end: str
    carrying: bool

    def describe(self) -> str:
        if self.carrying:
            return f"{player_name(self.player)} carries the ball to {self.end}."
        return f"{player_name(self.player)} moves from {self.start} to {self.end}."


@dataclass(frozen=True, slots=True)
class PhaseEnded(Event):
    team: int

    def describe(self) -> str:
        return f"{_Team(self.team)} ends its movement phase."


@dataclass(frozen=True, slots=True)
class PlayStalled(Event):
    phases: int
    cap: bool  # stopped by the simulation cap, rather than for nobody acting

    def describe(self) -> str:
        if self.cap:
            return f"The play is stopped after {self.phases} phases (a limit for simulations)."
        return f"Nobody has acted for {self.phases} phases: the play is over."


# -- magic ----------------------------------------------------------------------------------------


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


# -- scoring --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Touchdown(Event):
    player: int
    team: int

    def describe(self) -> str:
        return f"Touchdown! {player_name(self.player)} scores for {TEAM_NAMES[self.team]}."


@dataclass(frozen=True, slots=True)
class FieldGoalRolled(Event):
    distance: int
    roll: int
    need: int

    @property
    def good(self) -> bool:
        return self.roll <= self.need

    def describe(self) -> str:
        return (
            f"Field goal try from {self.distance} hexes: the kicker "
            f"{_needed(self.roll, self.need)}: {'good' if self.good else 'no good'}."
        )

    def in_brief(self) -> str:
        return "good" if self.good else "no good"


@dataclass(frozen=True, slots=True)
class KickBlockTried(Event):
    blocker: int
    blocked: bool

    def describe(self) -> str:
        if self.blocked:
            return f"{player_name(self.blocker)} blocks the kick!"
        return f"{player_name(self.blocker)} fails to block the kick."


@dataclass(frozen=True, slots=True)
class StunnedByKick(Event):
    blocker: int

    def describe(self) -> str:
        return f"{player_name(self.blocker)} is stunned by the kick: out for the next play."


@dataclass(frozen=True, slots=True)
class ExtraPointRolled(Event):
    """An extra point kick (``roll`` 0: a halfling kicker, who never misses)."""

    kicker: int
    roll: int
    good: bool

    def describe(self) -> str:
        if not self.roll:
            name = player_name(self.kicker)
            return f"{name}, a halfling, kicks the extra point: he never misses."
        verdict = "good" if self.good else "missed"
        return f"Extra point kick: {player_name(self.kicker)} rolls a {self.roll}: {verdict}."

    def in_brief(self) -> str:
        return "good" if self.good else "missed"


_SCORED = {
    "touchdown": "Touchdown team {team}: 6 points. {score}.",
    "field-goal": "Field goal: 3 points for team {team}. {score}.",
    "extra-point": "Extra point: 1 point for team {team}. {score}.",
    "conversion": "Two-point conversion good: 2 points for team {team}. {score}.",
    "safety": "Safety! 2 points for team {team}. {score}.",
}


@dataclass(frozen=True, slots=True)
class Scored(Event):
    how: str  # touchdown, field-goal, extra-point, conversion or safety
    team: int
    score: tuple[int, int]

    def describe(self) -> str:
        return _SCORED[self.how].format(team=TEAM_NAMES[self.team], score=_score(self.score))


@dataclass(frozen=True, slots=True)
class ConversionFailed(Event):
    team: int

    def describe(self) -> str:
        return f"{_Team(self.team)}'s two-point try fails."


@dataclass(frozen=True, slots=True)
class TurnoverOnDowns(Event):
    team: int  # the team that takes over

    def describe(self) -> str:
        return f"Four downs without a score: the ball changes hands, {_team(self.team)} takes over."


@dataclass(frozen=True, slots=True)
class Forfeited(Event):
    team: int

    def describe(self) -> str:
        return f"{_Team(self.team)} has no fit player left for the game."


@dataclass(frozen=True, slots=True)
class FinalWhistle(Event):
    result: str

    def describe(self) -> str:
        return f"Final whistle: {self.result}."
