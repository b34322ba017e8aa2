"""Live rooms: games in play, clocks, dice, bots, takeback, rematch (web/live/)."""
