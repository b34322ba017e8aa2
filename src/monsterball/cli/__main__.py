"""``python -m monsterball.cli``."""

from monsterball.cli import main

main()
