"""Monsters of the Midway (games/midway)."""
