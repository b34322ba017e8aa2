"""The tests, in folders that mirror src/monsterball/ (docs/architecture.md)."""
