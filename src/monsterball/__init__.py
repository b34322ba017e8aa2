"""monsterball: rules engines, play and simulation for three tabletop monster sports games.

Layers (docs/architecture.md, enforced by tests/test_layers.py), each importing only those
below it: ``core`` -> ``games`` -> bots and records (``bots``, ``search``, ``heuristic``,
``report``, ``metrics``, ``rules_text``) -> the top (``cli``, ``web``, ``tui``, ``lab``,
``simulate``, ``tournament``, ``rl``).
"""

__version__ = "0.1.0"
