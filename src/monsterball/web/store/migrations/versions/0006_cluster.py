"""Servers on one PostgreSQL act as one site: ``bot_leases`` says which server makes a game's
automatic moves (dice, bots) until when (web/cluster/leases.py). No existing row changes.

Revision ID: 0006_cluster
Revises: 0003
Create Date: 2026-11-30
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006_cluster"
down_revision: str | Sequence[str] | None = "0005_clocks_ratings"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "bot_leases",
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("owner", sa.String(length=64), nullable=False),
        sa.Column("until", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"]),
        sa.PrimaryKeyConstraint("game_id"),
    )


def downgrade() -> None:
    op.drop_table("bot_leases")
