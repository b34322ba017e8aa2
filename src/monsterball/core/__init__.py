"""The game-agnostic core: contract, dice, geometry, procedures, records. Pure, typed, no I/O.

Lives here: the game contract (``game``), the procedure stack (``procedures``) and the step
table by name (``flow``), the registry of games (``registry``), options, actions, dice,
geometry, positions, records and seating.
Imports: the standard library and core only; never a game or any layer above."""
