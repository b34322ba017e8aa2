"""The `monsterball` command (cli/)."""
