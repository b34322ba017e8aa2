"""Paper Ultimate's helpers for players and programs: the bots' heuristics, the learning planes."""
