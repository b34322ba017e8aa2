"""Live rooms in memory: the authoritative game state, who may act, clocks, dice and
bots in rooms. Nothing here knows FastAPI's routes."""
