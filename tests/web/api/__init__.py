"""The HTTP and WebSocket routes (web/api/)."""
