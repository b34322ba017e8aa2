"""Fair dice and resumed automatic moves: ``seed_text`` (a 128-bit seed as decimal text),
``seeded`` (the creator chose the seed), ``automatic`` (the next move is the dice's or a
bot's); all nullable, so rows from before stay valid (None: not known). Commit e64285b added
them with ``ALTER TABLE`` on start.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | Sequence[str] | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("seed_text", sa.String(length=80), nullable=True))
        batch.add_column(sa.Column("seeded", sa.Boolean(), nullable=True))
        batch.add_column(sa.Column("automatic", sa.Boolean(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("automatic")
        batch.drop_column("seeded")
        batch.drop_column("seed_text")
