"""Which compiled kernels run: the one rule, used by the engine and by ``monsterball.fast``.

The package build compiles the Cython kernels (setup.py); a compiled module is used when it
was built, the machine is little-endian (the kernels read boards as 64-bit words) and
``MONSTERBALL_PURE`` is not set. Otherwise the pure-Python functions run: they are the
reference, and give identical results (tests/core/test_fast_paths.py).

Imports: the standard library only (cheap: ``monsterball.fast`` reads this).
"""

from __future__ import annotations

import importlib
import os
import sys
from types import ModuleType

PURE_VARIABLE = "MONSTERBALL_PURE"


def wanted() -> bool:
    """Whether compiled kernels may run here (not turned off, a little-endian machine)."""
    return not os.environ.get(PURE_VARIABLE) and sys.byteorder == "little"


def load(name: str, api: int | None = None) -> ModuleType | None:
    """The compiled module ``name``, or None when it may not run, is not built, or is stale
    (built from an older source: its ``API`` differs from ``api``)."""
    if not wanted():
        return None
    try:
        module = importlib.import_module(name)
    except ImportError:
        return None
    if api is not None and getattr(module, "API", 1) != api:
        return None
    return module
