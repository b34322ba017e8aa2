"""Games and their moves: the schema of the first release (as ``create_all`` made it before
migrations existed; commit 0588f66).

Revision ID: 0001
Revises:
Create Date: 2026-11-30
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | Sequence[str] | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("game", sa.String(length=40), nullable=False),
        sa.Column("preset", sa.String(length=40), nullable=True),
        sa.Column("rules_version", sa.String(length=60), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("start", sa.JSON(), nullable=True),
        sa.Column("mode", sa.String(length=16), nullable=False),
        sa.Column("chairs", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("result", sa.Text(), nullable=False),
        sa.Column("plies", sa.Integer(), nullable=False),
        sa.Column("parent_id", sa.String(length=32), nullable=True),
        sa.Column("parent_ply", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_table(
        "moves",
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("ply", sa.Integer(), nullable=False),
        sa.Column("by", sa.String(length=16), nullable=False),
        sa.Column("action", sa.String(length=200), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"]),
        sa.PrimaryKeyConstraint("game_id", "ply"),
    )


def downgrade() -> None:
    op.drop_table("moves")
    op.drop_table("games")
