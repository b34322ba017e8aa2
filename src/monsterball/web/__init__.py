"""The web app: a FastAPI server (``monsterball serve``) and a browser client (docs/web.md).

Top layer: may import core, ``monsterball.games`` (games by name), bots and records; nothing
below imports it, and only ``cli`` does."""
