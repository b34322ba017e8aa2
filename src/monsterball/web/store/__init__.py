"""Where games and people live: SQLAlchemy tables, the fast append paths and the
alembic migrations."""
