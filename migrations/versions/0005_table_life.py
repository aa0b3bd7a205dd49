"""Life at a table and after it: chat lines, ratings per game and their history, a player's
game preferences, and tables played by simulations (kept apart from everything players see).

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("game_tables") as batch:
        batch.add_column(sa.Column("simulated", sa.Boolean, nullable=False, server_default=sa.false()))
    op.create_table(
        "chat_messages",
        sa.Column("id", sa.Integer, nullable=False),
        sa.Column("table_id", sa.Integer,
                  sa.ForeignKey("game_tables.id", name="fk_chat_messages_table_id_game_tables"),
                  nullable=False),
        sa.Column("author_id", sa.Integer,
                  sa.ForeignKey("players.id", name="fk_chat_messages_author_id_players"), nullable=False),
        sa.Column("body", sa.Text, nullable=False),
        sa.Column("hidden", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("created_at", sa.DateTime, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_chat_messages"),
    )
    op.create_index("ix_chat_messages_table_id_id", "chat_messages", ["table_id", "id"])
    op.create_table(
        "ratings",
        sa.Column("player_id", sa.Integer,
                  sa.ForeignKey("players.id", name="fk_ratings_player_id_players"), nullable=False),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False, server_default="0"),
        sa.Column("updated_at", sa.DateTime, nullable=False),
        sa.PrimaryKeyConstraint("player_id", "game", name="pk_ratings"),
    )
    op.create_table(
        "rating_changes",
        sa.Column("table_id", sa.Integer,
                  sa.ForeignKey("game_tables.id", name="fk_rating_changes_table_id_game_tables"),
                  nullable=False),
        sa.Column("player_id", sa.Integer,
                  sa.ForeignKey("players.id", name="fk_rating_changes_player_id_players"), nullable=False),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("before", sa.Float, nullable=False),
        sa.Column("after", sa.Float, nullable=False),
        sa.Column("recorded_at", sa.DateTime, nullable=False),
        sa.PrimaryKeyConstraint("table_id", "player_id", name="pk_rating_changes"),
    )
    op.create_index("ix_rating_changes_player_id_game", "rating_changes", ["player_id", "game"])
    op.create_table(
        "game_preferences",
        sa.Column("player_id", sa.Integer,
                  sa.ForeignKey("players.id", name="fk_game_preferences_player_id_players"), nullable=False),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("preference_id", sa.Integer, nullable=False),
        sa.Column("value", sa.Integer, nullable=False),
        sa.PrimaryKeyConstraint("player_id", "game", "preference_id", name="pk_game_preferences"),
    )


def downgrade() -> None:
    op.drop_table("game_preferences")
    op.drop_index("ix_rating_changes_player_id_game", "rating_changes")
    op.drop_table("rating_changes")
    op.drop_table("ratings")
    op.drop_index("ix_chat_messages_table_id_id", "chat_messages")
    op.drop_table("chat_messages")
    with op.batch_alter_table("game_tables") as batch:
        batch.drop_column("simulated")
