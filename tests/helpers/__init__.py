"""What the tests share besides fixtures (those are in tests/conftest.py): scenario builders
per game (``huck_monster``, ``midway``, ``paper_ultimate``), the web and browser harnesses
(``web``, ``browser``), a real terminal (``tty``) and the golden games' generator
(``golden``); ``ROOT`` and ``TESTS`` are the repository's and the tests' folders."""

from pathlib import Path

TESTS = Path(__file__).resolve().parent.parent
ROOT = TESTS.parent
