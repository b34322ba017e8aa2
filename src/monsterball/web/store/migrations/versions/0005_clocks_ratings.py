"""Clocks and ratings (issue 20): the games' ``clock`` (time control and each side's time),
``ending`` (a game ended off the board: lost on time), ``rated`` and ``players`` (seat ->
rating key, set by the server); the tables ``ratings`` (a player's Glicko-2 rating per game),
``rating_history`` (one row per rated game and player) and ``rated_games`` (the games
already in the ratings, so each is settled once). All new columns are nullable: older games
have no clock and are unrated.

Revision ID: 0005_clocks_ratings
Revises: 0003
Create Date: 2026-11-30
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005_clocks_ratings"
down_revision: str | Sequence[str] | None = "0004_accounts"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("clock", sa.JSON(none_as_null=True), nullable=True))
        batch.add_column(sa.Column("ending", sa.JSON(none_as_null=True), nullable=True))
        batch.add_column(sa.Column("rated", sa.Boolean(), nullable=True))
        batch.add_column(sa.Column("players", sa.JSON(none_as_null=True), nullable=True))
    op.create_table(
        "ratings",
        sa.Column("player", sa.String(length=64), nullable=False),
        sa.Column("game", sa.String(length=40), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("rd", sa.Float(), nullable=False),
        sa.Column("volatility", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("player", "game"),
    )
    op.create_table(
        "rating_history",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("player", sa.String(length=64), nullable=False),
        sa.Column("game", sa.String(length=40), nullable=False),
        sa.Column("game_id", sa.String(length=64), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("rd", sa.Float(), nullable=False),
        sa.Column("volatility", sa.Float(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_rating_history_player", "rating_history", ["player"])
    op.create_table(
        "rated_games",
        sa.Column("game_id", sa.String(length=64), nullable=False),
        sa.Column("game", sa.String(length=40), nullable=False),
        sa.Column("players", sa.JSON(), nullable=False),
        sa.Column("returns", sa.JSON(), nullable=False),
        sa.Column("settled_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("game_id"),
    )


def downgrade() -> None:
    op.drop_table("rated_games")
    op.drop_index("ix_rating_history_player", table_name="rating_history")
    op.drop_table("rating_history")
    op.drop_table("ratings")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("players")
        batch.drop_column("rated")
        batch.drop_column("ending")
        batch.drop_column("clock")
