"""Fair bots (issue 31): each game keeps whose it is (a hash of the creating address), so the
bot pool shares its workers fairly between owners, after a restart too. Existing games: null
(each its own owner).

Revision ID: 0008_game_owner
Revises: 0007_dice_scheme
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008_game_owner"
down_revision: str | Sequence[str] | None = "0007_dice_scheme"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("owner", sa.String(length=64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("owner")
