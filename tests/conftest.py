"""Test-wide settings, and the markers that follow from what a test needs.

``make test-fast`` runs ``-m "not slow and not browser and not postgres and not tty"``: a
test that asks for a PostgreSQL server (the ``postgres_url`` fixture) or Chromium (the
``browser`` fixture) is marked here, so the marker cannot be forgotten; ``tty`` tests (a
real terminal in tmux) are skipped where tmux is missing.
"""

from __future__ import annotations

import shutil

import pytest
from hypothesis import settings

# CI machines and a busy 2-core workstation are noisy: a hypothesis example that takes long is
# not a failure, so no per-example deadline (speed is measured by the benchmark scripts).
settings.register_profile("monsterball", deadline=None)
settings.load_profile("monsterball")

# The browser tests' fixtures (a live server, Chromium) live with their helpers.
pytest_plugins = ["tests.helpers.browser"]


@pytest.fixture(scope="module")
def postgres_url():
    """A throw-away PostgreSQL cluster of its own (tests/helpers/web.py, scratch_postgres)."""
    from tests.helpers.web import scratch_postgres

    with scratch_postgres() as url:
        yield url


MARK_BY_FIXTURE = {"postgres_url": pytest.mark.postgres, "browser": pytest.mark.browser}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    no_tmux = shutil.which("tmux") is None
    for item in items:
        for fixture in set(getattr(item, "fixturenames", ())) & MARK_BY_FIXTURE.keys():
            item.add_marker(MARK_BY_FIXTURE[fixture])
        if no_tmux and item.get_closest_marker("tty"):
            item.add_marker(pytest.mark.skip(reason="tmux is not installed"))
