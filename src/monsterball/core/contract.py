"""What the layers above ask of a game, beyond its rules: the typed hooks a :class:`GameSpec`
declares (``spec.bot``, ``spec.odds``, ``spec.docs``, ``spec.views``, ``spec.rl``,
``spec.checks``).

A game fills in only what it has; every hook has a default that works for a game without it
(the generic score evaluation, no odds pages, no rules document ...). The layers above read
the hooks and never name a game or import a game's modules
(tests/architecture/test_contract.py), so a new game plugs in by registering its ``SPEC``
(docs/architecture.md, "The game contract"). This plays the part of OpenSpiel's
``GameType``: declared once, read everywhere.

Imports: core only (the hooks are the game's own functions, handed over as values).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Protocol

from monsterball.core.actions import Action

if TYPE_CHECKING:
    from monsterball.core.game import GameSpec, GameState
    from monsterball.core.options import GameOptions
    from monsterball.core.seating import Seating


# -- the bot's hooks -------------------------------------------------------------------------


class Evaluate(Protocol):
    def __call__(self, state: GameState, /) -> float:
        """How good ``state`` is for seat 0, in [-1, 1] (+1 a sure win)."""


class Policy(Protocol):
    def __call__(
        self, state: GameState, seat: int, legal: Sequence[Action], rng: random.Random, /
    ) -> Action | None:
        """A rule for some decisions; None leaves the decision to the look-ahead."""


class Determinize(Protocol):
    def __call__(self, state: GameState, seat: int, rng: random.Random, /) -> GameState:
        """A copy of ``state`` with what ``seat`` may not see sampled afresh, consistent
        with what it does see."""


class Candidates(Protocol):
    def __call__(
        self, state: GameState, seat: int, legal: Sequence[Action], rng: random.Random, k: int, /
    ) -> list[Action]:
        """Which few of a long legal list are worth a look."""


class Planner(Protocol):
    def __call__(
        self, bot: BotHooks, state: GameState, seat: int, rng: random.Random, tries: int, /
    ) -> list[Action] | None:
        """A plan for a stretch of decisions from ``tries`` play-outs (None: no plan here)."""


class PlanKey(Protocol):
    def __call__(self, state: GameState, /) -> Any:
        """Names the stretch of decisions a plan belongs to."""


class Binding(Protocol):
    def __call__(self, state: GameState, legal: Sequence[Action], /) -> bool:
        """Whether the policy decides here for the search bot too."""


def terminal_value(state: GameState, seat: int) -> float:
    return float(state.returns()[seat])


def score_evaluate(state: GameState) -> float:
    """The fallback evaluation: the result when over, else a squashed score difference
    (``GameState.scores()``; 0 for a game that keeps no score)."""
    if state.is_terminal():
        return terminal_value(state, 0)
    values = state.scores()
    if values is None or len(values) < 2:
        return 0.0
    return math.tanh((values[0] - values[1]) / 3.0)


def sample_candidates(
    state: GameState, seat: int, legal: Sequence[Action], rng: random.Random, k: int
) -> list[Action]:
    """Up to ``k`` distinct legal actions drawn at random, plus any 'end' action (stopping
    is always worth weighing against moving on)."""
    if len(legal) <= k:
        return list(legal)
    picked = rng.sample(range(len(legal)), k)
    out = [legal[i] for i in picked]
    for action in legal[-2:]:
        if action.notation() == "end" and action not in out:
            out.append(action)
    return out


@dataclass(frozen=True)
class BotHooks:
    """A game's heuristic for the bots (``monsterball.bots.heuristic`` plays it): only
    ``evaluate`` is needed; the rest refine it. ``game`` names it in logs and ledgers."""

    game: str
    evaluate: Evaluate = score_evaluate
    policy: Policy | None = None
    # Games with hidden information must define it: search bots call it instead of
    # reading the truth (tests/architecture/test_contract.py checks the pair).
    determinize: Determinize | None = None
    candidates: Candidates = sample_candidates
    plan: Planner | None = None
    plan_key: PlanKey | None = None
    # Change whenever the bots' decisions change on purpose: strength ledgers
    # (monsterball.lab.strength) count games per version.
    version: str = "1"
    # Seat 0's value of a finished game (None: the result alone, +-1): an evaluation that
    # goes on telling results apart by the score once the winner is sure. With the result
    # alone a side that has lost either way judged any move that ended the game worse than
    # one that kept it going.
    final: Evaluate | None = None
    # Decisions the policy makes for the search bot too (None: none).
    binding: Binding | None = None
    # Whether the search bot's root judges every legal action one step ahead by default
    # (bots/mcts.py, "root pass"); a game where that finds overrated positions turns it off.
    root_pass: bool = True
    # The hard bot's random rollout after each leaf, in plies (where one paid in strength for
    # the same time), and how many candidates a new inner decision node judges one step
    # ahead to open them best first (0: the game's candidates unjudged, then random ones).
    rollout_depth: int = 0
    inner: int = 0

    def value(self, state: GameState, seat: int) -> float:
        """The evaluation from ``seat``'s side (two-seat zero-sum games)."""
        if state.is_terminal():
            if self.final is None:
                return terminal_value(state, seat)
            v = self.final(state)
        else:
            v = self.evaluate(state)
        return v if seat == 0 else -v

    @property
    def hidden_information(self) -> bool:
        return self.determinize is not None


# -- odds for the pages ----------------------------------------------------------------------


class Targets(Protocol):
    def __call__(self, state: GameState, /) -> Mapping[str, Any]:
        """JSON-ready odds of the decision being aimed now: ``{"ply", "targets": [{"action",
        "p", "exact", ...}], "caveats": [...]}`` (empty targets when nothing is aimed)."""


@dataclass(frozen=True)
class Calculator:
    """An odds calculator the terminal offers (``monsterball odds GAME``): ``probability``
    takes the command's named settings and returns the exact chance; ``name`` and ``help``
    describe it. Settings a game does not use are refused by the function itself."""

    name: str
    help: str
    probability: Callable[..., Fraction]


@dataclass(frozen=True)
class OddsHooks:
    """What the pages may show of the odds: the chance of each target of an aimed decision
    (``targets``; ``aimed``: the first word of that decision's notation), and which
    decisions' next die is priced outcome by outcome (``priced``: the first words of their
    notation)."""

    targets: Targets | None = None
    aimed: str = ""
    priced: tuple[str, ...] = ()
    calculator: Calculator | None = None


# -- documents and teaching ------------------------------------------------------------------


@dataclass(frozen=True)
class GameDocs:
    """Where a game's words for players are: ``rules_file`` in docs/rules/ (every rule id,
    status and ruling; None: none shipped), the printed rulebook as players know it, the
    package holding its ``data/lessons.json`` (hints, lessons, guide; None: none), the terminal's
    board legend and example notation for the help text."""

    rules_file: str | None = None
    rulebook_title: str = ""
    lessons_package: str | None = None
    legend: str = ""
    notation_examples: tuple[str, ...] = ()


# -- views -----------------------------------------------------------------------------------


class ActingCoach(Protocol):
    def __call__(self, state: GameState, seating: Seating, /) -> str | None:
        """Which coach (by chair name) of the seat to act acts now, in a many-coach game."""


class Roster(Protocol):
    def __call__(self, state: GameState, /) -> Mapping[str, Any] | None:
        """A JSON-ready roster or draft panel for the pages (None: nothing to show now)."""


class DraftHelp(Protocol):
    def __call__(self, state: GameState, seat: int, /) -> Mapping[str, Any] | None:
        """What a lesson shows the seat while it drafts (None: it does not draft now)."""


@dataclass(frozen=True)
class ViewHooks:
    """Extra views for the pages: which coach acts (``acting_coach``), a roster panel
    (``roster``), the help a drafting seat gets (``draft_help``) and the word for the
    object in play that the pages' legends use (``ball``: "ball", "disc" ...)."""

    acting_coach: ActingCoach | None = None
    roster: Roster | None = None
    draft_help: DraftHelp | None = None
    ball: str = "ball"


# -- learning environments -------------------------------------------------------------------


@dataclass(frozen=True)
class RLHooks:
    """What the learning environments (``monsterball.rl``) need of a game: its observation
    features (built lazily: numpy is an optional extra) and the decision cut of an episode."""

    features: Callable[[GameSpec, GameOptions], Any] | None = None
    max_decisions: int = 10_000


# -- checks of the fuzz harness --------------------------------------------------------------


class Twins(Protocol):
    def __call__(
        self, state: GameState, rng: random.Random, /
    ) -> Iterator[tuple[str, GameState, int]]:
        """States one seat cannot tell from ``state`` (a secret moved elsewhere, consistent
        with all it sees): for each, (what was changed, the twin, that seat)."""


@dataclass(frozen=True)
class CheckHooks:
    """What the fuzz harness (``monsterball.lab.fuzz``) checks of a game after every action
    of random play, beyond what it checks of every game. ``twins``: for a game with hidden
    information, each twin must look the same as the state to the seat it names and to
    spectators (view and picture) and, when that seat is to act, offer it the same legal
    actions; ``label`` heads the count of twins compared in the harness's report."""

    twins: Twins | None = None
    label: str = "hidden-information twins compared"


NO_DOCS = GameDocs()
NO_VIEWS = ViewHooks()
