"""The web app: a FastAPI server (``monsterball serve``) and a browser client (docs/web.md)."""
