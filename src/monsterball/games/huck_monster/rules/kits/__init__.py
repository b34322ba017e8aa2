"""The rulebook's optional kits: All-Stars, Pothole Markers, Hot Hex and Cone Push.

Imports: core, this game's model modules (``matchup``, ``field``, ...) and ``rules.common``
(never a chapter above)."""
