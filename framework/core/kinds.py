"""The kinds of things the framework names in its database and its code: a table's mode and
phase, a game's stage of release, a database's dialect. String enums: each compares equal
to the text stored in the platform database."""

from __future__ import annotations

from enum import StrEnum


class TableMode(StrEnum):
    """Studio tables run the developer's working tree; production ones a deployed release."""

    STUDIO = "studio"
    PRODUCTION = "production"


class TablePhase(StrEnum):
    """Where a table is in its life (the platform's ``game_tables.status`` column)."""

    SETUP = "setup"
    PLAYING = "playing"
    FINISHED = "finished"


class ReleaseStage(StrEnum):
    """How far a game is in BGA's publication: alpha, beta, then gold."""

    ALPHA = "alpha"
    BETA = "beta"
    GOLD = "gold"


class Dialect(StrEnum):
    """The SQL dialect of a table store (MariaDB's is ``mysql``, as sqlglot and SQLAlchemy say)."""

    SQLITE = "sqlite"
    POSTGRESQL = "postgresql"
    MYSQL = "mysql"
