"""What the tests share besides fixtures (those are in tests/conftest.py): scenario builders
per game, the web and browser harnesses, a real terminal, the golden games' generator."""
