"""How a Huck + Monster position is shown: text rendering, the shared board format, and which
coach acts now in a four-coach game."""
