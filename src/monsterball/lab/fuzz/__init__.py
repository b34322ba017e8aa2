"""The fuzz harness (run as ``python scripts/fuzz.py``): random legal play with invariant
checks after every action, then mutation fuzzers that feed broken records, positions,
notation and options to the readers and require a clean error.

Random play (per game x preset, until ``--actions`` or ``--seconds`` is reached). Half the
games draw chance outcomes by their probability (seeded, and the record must verify the
dice); the other half draw them uniformly and pick decisions uniformly by kind of action
first (so rare outcomes and rare actions such as spells come up). After every action:

- nothing raises (apply, legal actions, chance outcomes, every seat's view, render);
- a state that is not terminal offers actions (distinct ones), chance outcomes are
  Fractions in (0, 1] that sum to exactly 1;
- a clone equals the state and playing on it leaves the state unchanged;
- the position round-trips through JSON (same position, same hash, same legal actions);
- legal actions' notations parse back to the same action (12 a ply; one that read back
  already in this game is not parsed again), and no two different actions offered are
  written alike;
- a game with hidden information that declares its twins (``spec.checks.twins``, e.g.
  Midway: the real mirror-image caster swapped with an image, the invisible player moved
  to another free hex): nothing the other seat or a spectator sees (view, render) changes,
  nor, when the other seat is to act, its legal actions.

At the end of each game its record must read back and verify.

Mutation fuzzers (``--mutations`` cases per kind per game x preset): a broken record must
raise RecordError or replay to a divergence; a broken position must raise
MonsterballError (PositionError, OptionsError), or load into a state that can be viewed and
played without any other exception; a mangled notation must raise NotationError or give an
action that is legal or refused with IllegalActionError; mangled option text and values must
raise OptionsError or give options that start a game.

Modules, lowest first: ``checks`` (the per-action invariants), ``mutations`` (the mutation
fuzzers), ``play`` (checked play, one case, one game x preset of a chunk, the KNOWN
allow-list), ``report`` (the printed table, the JSON summary), ``ledger`` (the campaign's
ledger, scripts/ledgers/fuzz.json), ``cli`` (the command's flags and chunks).
"""
