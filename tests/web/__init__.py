"""The web app (web/)."""
