"""What keeps one server safe and responsive: per-client limits, security headers and
origin checks, the WebSocket message cap and the timed garbage collector."""
