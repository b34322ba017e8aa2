"""Contributed dice on several servers (issue 31): the game keeps until when its first die
waits for the chairs' nonces (epoch milliseconds; null: not due yet), so any server that
rolls it, after a restart too, keeps one wait. Existing games: null.

Revision ID: 0009_nonce_deadline
Revises: 0008_game_owner
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009_nonce_deadline"
down_revision: str | Sequence[str] | None = "0008_game_owner"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("dice_until", sa.BigInteger(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("dice_until")
