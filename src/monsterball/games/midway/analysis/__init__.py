"""Midway's helpers for players and programs: the bots' heuristics and phase planner, the
learning planes."""
