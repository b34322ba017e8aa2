"""Huck + Monster's helpers for players and programs: exact Up Call odds and the throw odds the
page shows, the bots' heuristics, the learning planes."""
