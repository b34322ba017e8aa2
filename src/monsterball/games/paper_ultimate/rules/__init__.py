"""Paper Ultimate's rule steps (the game's flow; one module per rulebook chapter as it grows)."""
