"""The kinds of things the framework names in its platform database: a table's mode and
phase, a game's stage of release. String enums: each compares equal to the text stored.
(A backend's dialect is ``framework.storage.sql.errors.Target``, a ``Literal``.)"""

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

