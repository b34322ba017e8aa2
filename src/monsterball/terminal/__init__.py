"""Playing in a terminal: the line-by-line game of ``monsterball play`` (``line_game``) and
the full-screen Textual app of ``monsterball tui`` (``tui``). The commands themselves live in
``monsterball.cli``."""
