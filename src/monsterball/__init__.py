"""monsterball: rules engines, play and simulation for three tabletop monster sports games."""

__version__ = "0.1.0"
