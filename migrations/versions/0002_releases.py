"""Releases and deployments of games.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "releases",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("version", sa.String(16), nullable=False),
        sa.Column("git_commit", sa.String(64)),
        sa.Column("notes", sa.Text, nullable=False),
        sa.Column("major", sa.Boolean, nullable=False),
        sa.Column("manifest", sa.JSON, nullable=False),
        sa.Column("created_at", sa.DateTime, nullable=False),
        sa.UniqueConstraint("game", "version", name="uq_releases_game"),
    )
    op.create_index("ix_releases_game", "releases", ["game"])
    op.create_table(
        "deployments",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("version", sa.String(16), nullable=False),
        sa.Column("previous_version", sa.String(16)),
        sa.Column("action", sa.String(16), nullable=False),
        sa.Column("forced", sa.Boolean, nullable=False),
        sa.Column("findings", sa.JSON, nullable=False),
        sa.Column("created_at", sa.DateTime, nullable=False),
    )
    op.create_index("ix_deployments_game", "deployments", ["game"])


def downgrade() -> None:
    op.drop_index("ix_deployments_game", "deployments")
    op.drop_table("deployments")
    op.drop_index("ix_releases_game", "releases")
    op.drop_table("releases")
