"""Huck + Monster (games/huck_monster)."""
