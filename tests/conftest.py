"""Test-wide settings."""

from __future__ import annotations

from hypothesis import settings

# CI machines and a busy 2-core workstation are noisy: a hypothesis example that takes long is
# not a failure, so no per-example deadline (speed is measured by the benchmark scripts).
settings.register_profile("monsterball", deadline=None)
settings.load_profile("monsterball")

# The browser tests' fixtures (a live server, Chromium) live with their helpers.
pytest_plugins = ["browser_helpers"]
