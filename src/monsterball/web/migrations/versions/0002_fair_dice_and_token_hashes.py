"""Fair dice and resumed automatic moves: ``seed_text`` (a 128-bit seed as decimal text),
``seeded`` (the creator chose the seed), ``automatic`` (the next move is the dice's or a
bot's), all nullable so old rows stay valid (None: from before). The chairs' tokens are
replaced by their SHA-256 (``token_hash``), so a copy of the database acts for no seat.

One-way: a token cannot be recovered from its hash, and the code before this revision reads
only ``token``.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30
"""

from __future__ import annotations

import hashlib
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
    _hash_tokens()


def _hash_tokens() -> None:
    # The hash as monsterball.web.live.hash_token computes it, written out here: a migration
    # must keep doing what it did when the code it imports changes.
    games = sa.table("games", sa.column("id", sa.String), sa.column("chairs", sa.JSON))
    connection = op.get_bind()
    for game_id, chairs in connection.execute(sa.select(games.c.id, games.c.chairs)).all():
        if not any("token" in chair for chair in chairs):
            continue
        hashed = []
        for chair in chairs:
            chair = dict(chair)
            if "token" in chair:
                token = chair.pop("token")
                digest = hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()
                chair["token_hash"] = digest
            hashed.append(chair)
        connection.execute(games.update().where(games.c.id == game_id).values(chairs=hashed))


def downgrade() -> None:
    raise NotImplementedError(
        "revision 0002 is one-way: the chairs' tokens are hashed and cannot be restored"
    )
