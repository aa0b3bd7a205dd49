"""The platform database: players, the registry of game tables, statistics history, logs.

Flask-SQLAlchemy models (``db.Model`` on SQLAlchemy 2.0's typed ``Base``): the web app uses
them through ``db.session``, the runtime, releases and CLI through ``Session(site.platform)``
on the same engine. Schema changes are Alembic revisions in ``migrations/``.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from flask_sqlalchemy import SQLAlchemy
from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Text,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from framework.core.clock import utcnow
from framework.core.kinds import ReleaseStage, TableMode, TablePhase

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


#: The web app's handle on the platform database (``framework/web/database.py`` gives it the
#: site's engine). ``autobegin=False``: every use of ``db.session`` is a ``with
#: db.session.begin():`` block, so a request holds no platform connection, and no snapshot,
#: while it calls the runtime, which writes through sessions of its own.
db = SQLAlchemy(model_class=Base, session_options={"autobegin": False})

if TYPE_CHECKING:
    # mypy cannot see through a base class made at run time (Flask-SQLAlchemy builds
    # ``db.Model`` from ``Base``'s body): it checks the models against ``Base`` itself.
    Model = Base
else:
    Model = db.Model


class Player(Model):
    """A person (or a studio test player, or a bot) who can sit at tables.

    An account is a player with a password. ``is_admin``: every right on the site.
    ``session_version`` is in every signed-in cookie of the account; raising it (sign-out,
    a new password) ends those sessions.
    """

    __tablename__ = "players"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(32), unique=True)
    password_hash: Mapped[str | None] = mapped_column(String(256))
    language: Mapped[str | None] = mapped_column(String(8))
    is_test: Mapped[bool] = mapped_column(Boolean, default=False)
    is_admin: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    session_version: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)


class GameDeveloper(Model):
    """An account that develops a game: its studio tables, tools, bug reports and releases."""

    __tablename__ = "game_developers"
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True)
    game: Mapped[str] = mapped_column(String(64), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)


class GameTableRecord(Model):
    """One game table (its moves live in its own database)."""

    __tablename__ = "game_tables"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game: Mapped[str] = mapped_column(String(64), index=True)
    mode: Mapped[str] = mapped_column(String(16), default=TableMode.STUDIO)  # a TableMode
    release_version: Mapped[str | None] = mapped_column(String(16))
    status: Mapped[str] = mapped_column(String(16), default=TablePhase.SETUP)  # a TablePhase
    blocked: Mapped[bool] = mapped_column(Boolean, default=False)
    seed: Mapped[str] = mapped_column(String(64))
    options: Mapped[dict[str, int]] = mapped_column(JSON, default=dict)
    state_name: Mapped[str | None] = mapped_column(String(64))
    progression: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime)
    created_by: Mapped[int | None] = mapped_column(Integer)  # the account, when one made it
    #: Played by ``arena simulate --keep``: left out of lobbies, player pages, statistics
    #: and ratings.
    simulated: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


class TableSeat(Model):
    """Who sits at a table, and their result once it has finished."""

    __tablename__ = "table_seats"
    table_id: Mapped[int] = mapped_column(ForeignKey("game_tables.id"), primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True)
    player_no: Mapped[int] = mapped_column(Integer)
    is_bot: Mapped[bool] = mapped_column(Boolean, default=False)
    score: Mapped[int | None] = mapped_column(Integer)
    score_aux: Mapped[int | None] = mapped_column(Integer)
    rank: Mapped[int | None] = mapped_column(Integer)


class GameRecord(Model):
    """A game's platform-wide status (alpha/beta/gold, blocked, production release)."""

    __tablename__ = "games"
    name: Mapped[str] = mapped_column(String(64), primary_key=True)
    status: Mapped[str] = mapped_column(String(8), default=ReleaseStage.ALPHA)
    blocked: Mapped[bool] = mapped_column(Boolean, default=False)
    production_version: Mapped[str | None] = mapped_column(String(16))


class StatRecord(Model):
    """One statistic of one finished table, keyed by the stat's stable id."""

    __tablename__ = "stat_history"
    __table_args__ = (
        UniqueConstraint("table_id", "stat_id", "player_id", "scope"),
        Index("ix_stat_history_player_game", "player_id", "game"),
    )
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("game_tables.id"))
    game: Mapped[str] = mapped_column(String(64))
    scope: Mapped[str] = mapped_column(String(8))  # table | player
    stat_id: Mapped[int] = mapped_column(Integer)
    player_id: Mapped[int | None] = mapped_column(Integer)
    value: Mapped[float] = mapped_column(Float)
    release_version: Mapped[str | None] = mapped_column(String(16))
    recorded_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)


class TableErrorRecord(Model):
    """A traceback from game code, for the table's error log in the studio."""

    __tablename__ = "table_errors"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(Integer, index=True)
    player_id: Mapped[int | None] = mapped_column(Integer)
    action: Mapped[str | None] = mapped_column(String(64))
    message: Mapped[str] = mapped_column(Text)
    traceback: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)


class ReleaseRecord(Model):
    """A built release of a game: an immutable copy of its package and a manifest."""

    __tablename__ = "releases"
    __table_args__ = (UniqueConstraint("game", "version"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game: Mapped[str] = mapped_column(String(64), index=True)
    version: Mapped[str] = mapped_column(String(16))  # YYMMDD-HHMM
    git_commit: Mapped[str | None] = mapped_column(String(64))
    notes: Mapped[str] = mapped_column(Text, default="")
    major: Mapped[bool] = mapped_column(Boolean, default=False)
    manifest: Mapped[dict[str, object]] = mapped_column(JSON, default=dict)
    built_by: Mapped[int | None] = mapped_column(Integer)  # the account, when one built it
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)


class DeploymentRecord(Model):
    """Each change of a game's production release (deploy or rollback), in order."""

    __tablename__ = "deployments"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game: Mapped[str] = mapped_column(String(64), index=True)
    version: Mapped[str] = mapped_column(String(16))
    previous_version: Mapped[str | None] = mapped_column(String(16))
    action: Mapped[str] = mapped_column(String(16))  # deploy | rollback
    forced: Mapped[bool] = mapped_column(Boolean, default=False)
    findings: Mapped[list[object]] = mapped_column(JSON, default=list)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)


class OpenTable(Model):
    """A production table waiting for its players in the lobby; started when full."""

    __tablename__ = "open_tables"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game: Mapped[str] = mapped_column(String(64))
    players: Mapped[int] = mapped_column(Integer)
    options: Mapped[dict[str, int]] = mapped_column(JSON, default=dict)
    player_names: Mapped[list[str]] = mapped_column(JSON, default=list)
    created_by: Mapped[int | None] = mapped_column(Integer)
    table_id: Mapped[int | None] = mapped_column(Integer)  # set once the table has started
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)


class BugReport(Model):
    """A player's bug report from the studio: their text, the table's rows and its log.

    ``snapshot`` holds every live table of the table's database (JSON), so the studio can
    reopen the report as a new table in that exact state.
    """

    __tablename__ = "bug_reports"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(Integer, index=True)
    game: Mapped[str] = mapped_column(String(64))
    release_version: Mapped[str | None] = mapped_column(String(16))
    player_id: Mapped[int | None] = mapped_column(Integer)
    text: Mapped[str] = mapped_column(Text)
    state_name: Mapped[str | None] = mapped_column(String(64))
    snapshot: Mapped[str] = mapped_column(Text)
    log: Mapped[str] = mapped_column(Text)
    reopened_table_id: Mapped[int | None] = mapped_column(Integer)
    account_id: Mapped[int | None] = mapped_column(Integer)  # who reported it, when signed in
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)


class ChatMessage(Model):
    """One line of a table's chat (``author_id`` is the account or test player who wrote it)."""

    __tablename__ = "chat_messages"
    __table_args__ = (Index("ix_chat_messages_table_id_id", "table_id", "id"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("game_tables.id"))
    author_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    body: Mapped[str] = mapped_column(Text)
    hidden: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)


class Rating(Model):
    """A player's rating in one game, moved only by finished production tables."""

    __tablename__ = "ratings"
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True)
    game: Mapped[str] = mapped_column(String(64), primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    updated_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)


class RatingChange(Model):
    """How one finished table moved one player's rating (the history a player page shows)."""

    __tablename__ = "rating_changes"
    __table_args__ = (Index("ix_rating_changes_player_id_game", "player_id", "game"),)
    table_id: Mapped[int] = mapped_column(ForeignKey("game_tables.id"), primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True)
    game: Mapped[str] = mapped_column(String(64))
    before: Mapped[float] = mapped_column(Float)
    after: Mapped[float] = mapped_column(Float)
    recorded_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)


class GamePreference(Model):
    """A player's choice for one of a game's declared preferences (card faces, ...)."""

    __tablename__ = "game_preferences"
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True)
    game: Mapped[str] = mapped_column(String(64), primary_key=True)
    preference_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    value: Mapped[int] = mapped_column(Integer)
