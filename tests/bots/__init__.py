"""The bots (bots/)."""
