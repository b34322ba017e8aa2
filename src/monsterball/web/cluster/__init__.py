"""Servers on one PostgreSQL acting as one site: the bus, bot leases, the sweeper."""
