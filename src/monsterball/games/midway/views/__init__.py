"""How a Midway position is shown: text rendering, the shared board format, the draft panels."""
