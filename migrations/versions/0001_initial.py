"""Platform database: players, game tables, seats, games, statistics history, error log.

Revision ID: 0001
Revises:
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(32), nullable=False),
        sa.Column("password_hash", sa.String(256)),
        sa.Column("language", sa.String(8)),
        sa.Column("is_test", sa.Boolean, nullable=False),
        sa.Column("created_at", sa.DateTime, nullable=False),
        sa.UniqueConstraint("name", name="uq_players_name"),
    )
    op.create_table(
        "game_tables",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("mode", sa.String(16), nullable=False),
        sa.Column("release_version", sa.String(16)),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("blocked", sa.Boolean, nullable=False),
        sa.Column("seed", sa.String(64), nullable=False),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("state_name", sa.String(64)),
        sa.Column("progression", sa.Integer, nullable=False),
        sa.Column("created_at", sa.DateTime, nullable=False),
        sa.Column("updated_at", sa.DateTime, nullable=False),
        sa.Column("finished_at", sa.DateTime),
    )
    op.create_index("ix_game_tables_game", "game_tables", ["game"])
    op.create_table(
        "table_seats",
        sa.Column("table_id", sa.Integer, sa.ForeignKey("game_tables.id",
                  name="fk_table_seats_table_id_game_tables"), primary_key=True),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id",
                  name="fk_table_seats_player_id_players"), primary_key=True),
        sa.Column("player_no", sa.Integer, nullable=False),
        sa.Column("is_bot", sa.Boolean, nullable=False),
        sa.Column("score", sa.Integer),
        sa.Column("score_aux", sa.Integer),
        sa.Column("rank", sa.Integer),
    )
    op.create_table(
        "games",
        sa.Column("name", sa.String(64), primary_key=True),
        sa.Column("status", sa.String(8), nullable=False),
        sa.Column("blocked", sa.Boolean, nullable=False),
        sa.Column("production_version", sa.String(16)),
    )
    op.create_table(
        "stat_history",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("table_id", sa.Integer, sa.ForeignKey("game_tables.id",
                  name="fk_stat_history_table_id_game_tables"), nullable=False),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("scope", sa.String(8), nullable=False),
        sa.Column("stat_id", sa.Integer, nullable=False),
        sa.Column("player_id", sa.Integer),
        sa.Column("value", sa.Float, nullable=False),
        sa.Column("release_version", sa.String(16)),
        sa.Column("recorded_at", sa.DateTime, nullable=False),
        sa.UniqueConstraint("table_id", "stat_id", "player_id", "scope",
                            name="uq_stat_history_table_id"),
    )
    op.create_index("ix_stat_history_player_game", "stat_history", ["player_id", "game"])
    op.create_table(
        "table_errors",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("table_id", sa.Integer, nullable=False),
        sa.Column("player_id", sa.Integer),
        sa.Column("action", sa.String(64)),
        sa.Column("message", sa.Text, nullable=False),
        sa.Column("traceback", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime, nullable=False),
    )
    op.create_index("ix_table_errors_table_id", "table_errors", ["table_id"])


def downgrade() -> None:
    op.drop_index("ix_table_errors_table_id", "table_errors")
    op.drop_table("table_errors")
    op.drop_index("ix_stat_history_player_game", "stat_history")
    op.drop_table("stat_history")
    op.drop_table("games")
    op.drop_table("table_seats")
    op.drop_index("ix_game_tables_game", "game_tables")
    op.drop_table("game_tables")
    op.drop_table("players")
