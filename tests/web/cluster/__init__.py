"""Several servers on one PostgreSQL: the move bus and bot leases (web/cluster/)."""
