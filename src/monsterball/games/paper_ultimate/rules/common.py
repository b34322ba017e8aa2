"""What Paper Ultimate's rule chapters share: the state's name and ``FLOW``, the step table by
name that lets a step start a step of a chapter above it (core.flow)."""

from __future__ import annotations

from monsterball.core.flow import Flow
from monsterball.games.paper_ultimate.state import PaperUltimateState

State = PaperUltimateState
# Steps by name, wired by rules/flow once every chapter is loaded (see core.flow).
FLOW: Flow[State] = Flow()
