"""Hardening: limits, security headers, the red team's attacks, the collector (web/hardening/)."""
