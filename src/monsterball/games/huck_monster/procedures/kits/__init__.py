"""The rulebook's optional kits: All-Stars, Pothole Markers, Hot Hex and Cone Push.

Imports: core, this game's rules modules and ``procedures.common`` (never a chapter above)."""
