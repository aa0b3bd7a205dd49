"""Roles and sessions: admins, developers of a game, a session version per account, and who
made each studio table, bug report and release (for the caps per account).

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("is_admin", sa.Boolean, nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("session_version", sa.Integer, nullable=False, server_default="0"))
    op.create_table(
        "game_developers",
        sa.Column("player_id", sa.Integer,
                  sa.ForeignKey("players.id", name="fk_game_developers_player_id_players"), nullable=False),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime, nullable=False),
        sa.PrimaryKeyConstraint("player_id", "game", name="pk_game_developers"),
    )
    with op.batch_alter_table("game_tables") as batch:
        batch.add_column(sa.Column("created_by", sa.Integer))
    with op.batch_alter_table("releases") as batch:
        batch.add_column(sa.Column("built_by", sa.Integer))
    with op.batch_alter_table("bug_reports") as batch:
        batch.add_column(sa.Column("account_id", sa.Integer))


def downgrade() -> None:
    with op.batch_alter_table("bug_reports") as batch:
        batch.drop_column("account_id")
    with op.batch_alter_table("releases") as batch:
        batch.drop_column("built_by")
    with op.batch_alter_table("game_tables") as batch:
        batch.drop_column("created_by")
    op.drop_table("game_developers")
    with op.batch_alter_table("players") as batch:
        batch.drop_column("session_version")
        batch.drop_column("is_admin")
