"""The HTTP API: one module of routes per resource (docs/web.md)."""
