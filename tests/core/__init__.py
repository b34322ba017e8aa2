"""The core: geometry, seating, records, fast paths, and properties over every game."""
