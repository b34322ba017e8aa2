"""The learning environments (rl/)."""
