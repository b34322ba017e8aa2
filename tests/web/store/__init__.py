"""The game store on SQLite and PostgreSQL, and its migrations (web/store/)."""
