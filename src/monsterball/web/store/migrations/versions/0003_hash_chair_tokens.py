"""The chairs' secret tokens are kept as their SHA-256 (``token_hash``), so a copy of the
database acts for no seat (commit 3b9cf48 stored new games so; this rewrites older ones).
Data only: the schema does not change.

One-way: a token cannot be recovered from its hash, and the code before this revision reads
only ``token``.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-30
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | Sequence[str] | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _hash(token: str) -> str:
    # monsterball.web.live.game.hash_token, written out: a migration must keep doing what it did
    # when the code it could import changes.
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def upgrade() -> None:
    games = sa.table("games", sa.column("id", sa.String), sa.column("chairs", sa.JSON))
    connection = op.get_bind()
    # Only rows whose JSON text holds the key "token" (not "token_hash") are read back.
    plain = sa.cast(games.c.chairs, sa.Text).like('%"token"%')
    query = sa.select(games.c.id, games.c.chairs).where(plain)
    for game_id, chairs in connection.execute(query).all():
        if not any("token" in chair for chair in chairs):
            continue
        hashed = []
        for chair in chairs:
            chair = dict(chair)
            if "token" in chair:
                chair["token_hash"] = _hash(chair.pop("token"))
            hashed.append(chair)
        connection.execute(games.update().where(games.c.id == game_id).values(chairs=hashed))


def downgrade() -> None:
    raise NotImplementedError(
        "revision 0003 is one-way: the chairs' tokens are hashed and cannot be restored"
    )
