"""Monsters of the Midway's rule steps, one module per part of the rulebook: ``flow`` (the
order of a game, every step kind), ``draft``, ``kickoff``, ``scrimmage``, ``scoring``,
``settle`` and the in-play steps (``inplay``, ``phases``, ``phase_open``, ``contact``, ``ball``,
``magic``). Import a step from the module that defines it."""
