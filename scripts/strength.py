"""Strength of the bots, one pairing at a time, in resumable parts kept in a ledger: the
command line of :mod:`monsterball.lab.strength` (its docstring says what and how)."""

from monsterball.lab.strength import main

if __name__ == "__main__":
    raise SystemExit(main())
