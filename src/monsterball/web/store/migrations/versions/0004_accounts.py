"""Accounts and the people around games (issue 20): accounts, sessions, game_seats (which
account sits in which chair), challenges, chat_messages, relations (mutes and blocks) and
reports. New tables only: the games and their moves do not change.

Revision ID: 0004_accounts
Revises: 0003
Create Date: 2026-11-30
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004_accounts"
down_revision: str | Sequence[str] | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TZ = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(length=24), nullable=False),
        sa.Column("name_key", sa.String(length=24), nullable=False),
        sa.Column("password_hash", sa.String(length=200), nullable=False),
        sa.Column("locked", sa.Boolean(), nullable=False),
        sa.Column("created_at", TZ, nullable=False),
    )
    op.create_index("ix_accounts_name_key", "accounts", ["name_key"], unique=True)
    op.create_table(
        "sessions",
        sa.Column("token_hash", sa.String(length=64), primary_key=True),
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("csrf_hash", sa.String(length=64), nullable=False),
        sa.Column("created_at", TZ, nullable=False),
        sa.Column("expires_at", TZ, nullable=False),
    )
    op.create_index("ix_sessions_account_id", "sessions", ["account_id"])
    op.create_table(
        "game_seats",
        sa.Column("game_id", sa.String(length=32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("seat", sa.String(length=16), primary_key=True),
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id"), nullable=False),
    )
    op.create_index("ix_game_seats_account_id", "game_seats", ["account_id"])
    op.create_table(
        "challenges",
        sa.Column("id", sa.String(length=16), primary_key=True),
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("game", sa.String(length=40), nullable=False),
        sa.Column("preset", sa.String(length=40), nullable=True),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("clock", sa.JSON(), nullable=True),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("seat", sa.String(length=16), nullable=True),
        sa.Column("quick", sa.Boolean(), nullable=False),
        sa.Column("status", sa.String(length=12), nullable=False),
        sa.Column("game_id", sa.String(length=32), nullable=True),
        sa.Column("created_at", TZ, nullable=False),
        sa.Column("expires_at", TZ, nullable=False),
    )
    op.create_index("ix_challenges_status", "challenges", ["status"])
    op.create_table(
        "chat_messages",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(length=32), nullable=True),
        sa.Column("channel", sa.String(length=12), nullable=False),
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id"), nullable=True),
        sa.Column("author", sa.String(length=40), nullable=False),
        sa.Column("text", sa.String(length=500), nullable=False),
        sa.Column("deleted", sa.Boolean(), nullable=False),
        sa.Column("created_at", TZ, nullable=False),
    )
    op.create_index("ix_chat_messages_game_channel", "chat_messages", ["game_id", "channel", "id"])
    op.create_table(
        "relations",
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("other_id", sa.Integer(), sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("kind", sa.String(length=8), primary_key=True),
    )
    op.create_table(
        "reports",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("message_id", sa.Integer(), sa.ForeignKey("chat_messages.id"), nullable=False),
        sa.Column("reporter_id", sa.Integer(), sa.ForeignKey("accounts.id"), nullable=True),
        sa.Column("created_at", TZ, nullable=False),
    )


def downgrade() -> None:
    for index, table in [
        ("ix_chat_messages_game_channel", "chat_messages"),
        ("ix_challenges_status", "challenges"),
        ("ix_game_seats_account_id", "game_seats"),
        ("ix_sessions_account_id", "sessions"),
        ("ix_accounts_name_key", "accounts"),
    ]:
        op.drop_index(index, table_name=table)
    for table in [
        "reports",
        "relations",
        "chat_messages",
        "challenges",
        "game_seats",
        "sessions",
        "accounts",
    ]:
        op.drop_table(table)
