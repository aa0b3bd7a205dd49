"""Studio bug reports (text, snapshot of the table, log) and open production tables.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "bug_reports",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("table_id", sa.Integer, nullable=False),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("release_version", sa.String(16)),
        sa.Column("player_id", sa.Integer),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("state_name", sa.String(64)),
        sa.Column("snapshot", sa.Text, nullable=False),
        sa.Column("log", sa.Text, nullable=False),
        sa.Column("reopened_table_id", sa.Integer),
        sa.Column("created_at", sa.DateTime, nullable=False),
    )
    op.create_index("ix_bug_reports_table_id", "bug_reports", ["table_id"])
    op.create_table(
        "open_tables",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("player_names", sa.JSON, nullable=False),
        sa.Column("created_by", sa.Integer),
        sa.Column("table_id", sa.Integer),
        sa.Column("created_at", sa.DateTime, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("open_tables")
    op.drop_index("ix_bug_reports_table_id", "bug_reports")
    op.drop_table("bug_reports")
