"""The game-agnostic core: contract, dice, geometry, procedures, records. Pure, typed, no I/O."""
