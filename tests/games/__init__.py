"""The games: golden replays of all of them, the toy game plugged in from outside."""
