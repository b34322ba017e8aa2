"""Contributed dice (issue 31): each game names its dice scheme and keeps the nonces its
chairs contributed. Existing games keep null: the legacy random.Random stream they rolled.

Revision ID: 0007_dice_scheme
Revises: 0006_cluster
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007_dice_scheme"
down_revision: str | Sequence[str] | None = "0006_cluster"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("dice", sa.String(length=32), nullable=True))
        batch.add_column(sa.Column("dice_nonces", sa.JSON(none_as_null=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("dice_nonces")
        batch.drop_column("dice")
