"""The designers' lab: many seeded bot games and what they measure.

``simulation`` (one setting: win rates, intervals, lengths), ``sweeps`` (several rule
settings compared game by game), ``tournaments`` (round robins between bots, kept in
SQLite), ``metrics`` (custom measures over a game's events), ``reports`` (the HTML report
of a sweep) and ``pool`` (the worker processes they all run on). The names below are the
package's public face (``monsterball.lab.simulate``, ``monsterball.lab.sweep``, docs/api.md).
"""

from monsterball.lab.simulation import simulate
from monsterball.lab.sweeps import SweepResult, sweep

__all__ = ["SweepResult", "simulate", "sweep"]
