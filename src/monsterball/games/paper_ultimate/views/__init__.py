"""How a Paper Ultimate position is shown: text rendering and the shared board format."""
