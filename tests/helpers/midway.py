"""Builders for Monsters of the Midway scenario tests.

A scenario starts from a game with two saved rosters (no draft), puts chosen players on
chosen hexes, and starts a live play or a step. Team A attacks north (B defends the north
end zone and has the wind) unless a test says otherwise. Dice are given as explicit
chance outcomes (``d6=4``) in the action list, so every die a rule rolls is visible.
"""

from __future__ import annotations

from typing import Any

from monsterball.bots.heuristic import HeuristicBot
from monsterball.core.dice import SeededSampler
from monsterball.core.game import CHANCE, GameState
from monsterball.games import get_game
from monsterball.games.midway.actions import parse_player
from monsterball.games.midway.rules.phases import StartPhase
from monsterball.games.midway.rules.settle import Play
from monsterball.games.midway.state import MidwayState

SPEC = get_game("midway")
ROSTER = "human,human,human,orc,orc,bugbear,bugbear,dwarf,gnome,halfling"


def game(roster_a: str = ROSTER, roster_b: str = ROSTER, **options: Any) -> MidwayState:
    state = SPEC.new_game(SPEC.options(roster_a=roster_a, roster_b=roster_b, **options))
    assert isinstance(state, MidwayState)
    return state


def cell(state: MidwayState, name: str) -> int:
    return state.field.parse_cell(name)


def row_of(name: str) -> int:
    """Internal row of a hex name (``g10`` -> 9)."""
    return int(name[1:]) - 1


def setup(
    players: dict[str, str],
    *,
    types: dict[str, str] | None = None,
    carrier: str | None = None,
    ball: str | None = None,
    ball_state: str = "held",
    offense: int = 0,
    los: str | None = None,
    kind: str = "scrimmage",
    linemen: tuple[str, ...] = (),
    **options: Any,
) -> MidwayState:
    """A state between plays with ``players`` on the field (others on the bench)."""
    state = game(**options)
    state.stack = ()
    for name, kind_name in (types or {}).items():
        state.roster[parse_player(name)] = kind_name
    for name, where in players.items():
        state.pos[parse_player(name)] = cell(state, where)
    state.north_team = 1
    state.offense = state.poss = offense
    state.kind = kind
    state.play_no = 3
    state.plays = 3
    if carrier is not None:
        state.carrier = parse_player(carrier)
        state.ball = state.pos[state.carrier]
        state.ball_state = "held"
        state.poss = parse_player(carrier) // 10
    elif ball is not None:
        state.ball = cell(state, ball)
        state.ball_state = ball_state
    spot = los or (ball if ball else players.get(carrier or "", "g10"))
    state.spot = cell(state, spot)
    if state.ball < 0:
        state.ball = state.spot  # between plays the ball waits on its spot
    state.los_row = row_of(spot)
    for name in linemen:
        state.linemen |= 1 << parse_player(name)
    return state


def start_phase(state: MidwayState, team: int, first: bool = False) -> MidwayState:
    """Put a live play on the stack and run the start of ``team``'s movement phase."""
    if first:
        state.first_phase = team
    state.stack = (Play(), StartPhase(team))
    state._settle()
    return state


def act(state: GameState, *notations: str) -> list[Any]:
    """Apply actions (decisions and chance outcomes alike) by notation; all events."""
    events: list[Any] = []
    for text in notations:
        events += state.apply(SPEC.parse_action(text))
    return events


def play_out_conversion(state: MidwayState, seed: int, steps: int = 60) -> list[int]:
    """Heuristic bots (seeds ``seed`` and ``seed + 1``) play until the 2-point try under way
    is over; the score then."""
    bots = [HeuristicBot(seed), HeuristicBot(seed + 1)]
    dice = SeededSampler(seed)
    for _ in range(steps):
        if state.is_terminal() or state.kind != "conversion":
            break
        actor = state.current_player()
        if actor == CHANCE:
            state.apply(dice.choose(state.chance_outcomes()))
        else:
            state.apply(bots[actor].choose(state, actor))
    assert state.is_terminal() or state.kind != "conversion", "the try never ended"
    return list(state.score)


def legal(state: GameState) -> set[str]:
    return {a.notation() for a in state.legal_actions()}


def moves_of(state: GameState, player: str) -> set[str]:
    return {n.split("-")[1] for n in legal(state) if n.startswith(player + "-")}


def top(state: GameState) -> str:
    return type(state.stack[-1]).__name__ if state.stack else "terminal"


def texts(events: list[Any]) -> list[str]:
    return [e.describe() for e in events]


def kinds(events: list[Any]) -> list[str]:
    return [type(e).__name__ for e in events]


# -- hidden-information scenarios (mirror image, MW-MAGIC-2) -----------------------------------


def mirror_play(real: str | None = "g12") -> MidwayState:
    """The mirror image example: the ball carrier BC (a brownie, A1) and three images
    M-1..M-3; defender D-1 (B1, movement 4 as an elf) watching. With ``real`` None the
    caster's coach has not chosen the real one yet."""
    state = setup(
        {"A1": "g12", "A2": "c10", "B1": "g16", "B2": "m20"},
        types={"A1": "brownie", "B1": "elf"},
        carrier="A1",
        los="g10",
    )
    start_phase(state, 0)
    act(state, "cast A1 mirror", "d6=6")  # 6 / 2 = 3 images
    act(state, "image h12", "image f12", "image g13")
    if real is not None:
        act(state, f"real {real}")
    return state


def defending_caster(real: str, **options: Any) -> MidwayState:
    """B1 (a brownie) hides among two counters, h12 and i12; A1 carries the ball on g10."""
    state = setup(
        {"A1": "g10", "B1": "h12", "B2": "m20"},
        types={"B1": "brownie"},
        carrier="A1",
        los="g10",
        **options,
    )
    start_phase(state, 0)
    act(state, "end", "cast B1 mirror", "d6=2", "image i12", f"real {real}", "end")
    assert top(state) == "Phase" and state.stack[-1].team == 0
    return state


def caster_carrying_for_b() -> MidwayState:
    """B on offense: B1 (a brownie, who may cast mirror image) carries the ball on g12."""
    state = setup(
        {"B1": "g12", "B2": "c14", "A1": "g9", "A2": "m2"},
        types={"B1": "brownie"},
        carrier="B1",
        los="g13",
        offense=1,
    )
    start_phase(state, 1)
    return state


def pass_to_hidden(hidden: str, **options: Any) -> MidwayState:
    """A1 throws to g14; in B's phase B1 (a brownie on h14) casts mirror image with one
    image on g14 and ``hidden`` ('g14' or 'h14') as the real counter; B then ends its phase
    and the pass comes down (ruling MW-R21)."""
    state = setup(
        {"A1": "g10", "A2": "c10", "B1": "h14", "B2": "m20"},
        types={"B1": "brownie"},
        carrier="A1",
        los="g10",
        **options,
    )
    start_phase(state, 0)
    act(state, "pass g14", "end", "cast B1 mirror", "d6=2", "image g14", f"real {hidden}")
    return state


def pass_to_invisible(appear: str, **options: Any) -> MidwayState:
    """A1 throws to g14; in B's phase B3 (a pixie, movement 4) turns invisible on g17 and
    moves unseen to ``appear``; B then ends its phase and the pass comes down."""
    state = setup(
        {"A1": "g10", "A2": "c10", "B3": "g17", "B2": "m20"},
        types={"B3": "pixie"},
        carrier="A1",
        los="g10",
        **options,
    )
    start_phase(state, 0)
    act(state, "pass g14", "end", "cast B3 invisible", f"appear {appear}")
    return state


def pass_to_hidden_receiver(hidden: str, **options: Any) -> MidwayState:
    """A1 throws to g14; then A2 (a brownie lineman on h14) casts mirror image with one
    image on g14 and ``hidden`` as the real counter; both teams end their phases and the
    pass comes down (ruling MW-R21)."""
    state = setup(
        {"A1": "g10", "A2": "h14", "B1": "c10", "B2": "m20"},
        types={"A2": "brownie"},
        carrier="A1",
        los="g10",
        linemen=("A2",),
        **options,
    )
    start_phase(state, 0)
    act(state, "pass g14", "cast A2 mirror", "d6=2", "image g14", f"real {hidden}", "end")
    return state


def running(options: dict[str, Any] | None = None, **extra: str) -> MidwayState:
    """A1 carries the ball on g10 at the start of A's phase, with B1 near and B2 far."""
    players = {"A1": "g10", "B1": "i12", "B2": "a20", **extra}
    state = setup(players, carrier="A1", los="g10", **(options or {}))
    start_phase(state, 0)
    return state


def scrimmage_ready(**options: Any) -> MidwayState:
    """The third play about to start from scrimmage on g10 (formations come next)."""
    state = setup({}, los="g10", **options)
    state.plays = 3
    state.stack = (SPEC.state_type.procedure_kinds["StartScrimmage"](False),)
    state._settle()
    return state
