"""Accounts and their roles on the platform database: admins, developers of a game, passwords
and the session version that ends an account's sessions (``arena user`` wraps these).

Test players (``player1``, ``player2``... at studio tables) are players without a password;
their names are kept from accounts, so that no real account is ever seated at a studio table.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from sqlalchemy import Engine, delete, func, select, update
from sqlalchemy.orm import Session, scoped_session
from werkzeug.security import check_password_hash, generate_password_hash

from framework.core.errors import NotFoundError, UserError
from framework.platform.models import GameDeveloper, Player, TableSeat

NAME = re.compile(r"^[A-Za-z0-9_.-]{2,32}$")
#: the names the studio gives its test players (``test_player_name``), in any case
TEST_PLAYER_NAME = re.compile(r"^player[0-9]+$", re.IGNORECASE)
MIN_PASSWORD = 6
#: a session of the platform database: the runtime's own, or the web app's ``db.session``
AnySession = Session | scoped_session[Any]


def test_player_name(seat: int) -> str:
    """The name of the studio's test player at ``seat`` (0-based).

    >>> test_player_name(0)
    'player1'
    """
    return f"player{seat + 1}"


def is_reserved_name(name: str) -> bool:
    """A name no account may take: the studio's test players'.

    >>> is_reserved_name("Player12"), is_reserved_name("player1x")
    (True, False)
    """
    return TEST_PLAYER_NAME.match(name) is not None


def check_new_account(name: str, password: str) -> None:
    """``name`` and ``password`` may make an account (whether the name is free is not checked).

    Raises:
        UserError: the name is malformed or reserved, or the password too short.
    """
    if not NAME.match(name):
        raise UserError("A name is 2 to 32 letters, digits, dots, dashes or underscores", "bad_name")
    if is_reserved_name(name):
        raise UserError("Names like ${name} are kept for the studio's test players: choose another",
                        "reserved_name", name=name)
    check_password(password)


def check_password(password: str) -> None:
    """Raises:
        UserError: the password is too short.
    """
    if len(password) < MIN_PASSWORD:
        raise UserError("A password needs at least 6 characters", "short_password")


@lru_cache(maxsize=1)
def dummy_hash() -> str:
    """A password hash of nothing anyone knows: a sign-in with an unknown name checks against
    it, so that it takes as long as one with a known name."""
    return generate_password_hash("not the password of anyone")


def verify_password(password_hash: str | None, password: str) -> bool:
    """``password`` matches ``password_hash``; with no hash (no such account, a test player)
    the same work is done against ``dummy_hash`` and the answer is False."""
    if not password_hash:
        check_password_hash(dummy_hash(), password)
        return False
    return check_password_hash(password_hash, password)


@dataclass(frozen=True)
class Account:
    """An account as ``arena user list`` shows it."""

    id: int
    name: str
    is_admin: bool
    developer_of: tuple[str, ...]


def has_accounts(session: AnySession) -> bool:
    """The site has at least one account (a player with a password)."""
    return session.scalar(select(func.count()).select_from(Player)
                          .where(Player.password_hash.is_not(None))) != 0


def create_account(session: AnySession, name: str, password: str, admin: bool = False,
                   language: str | None = None) -> Player:
    """A new account in ``session`` (flushed); the site's first account is an admin.

    Raises:
        UserError: a bad or reserved name, a short password, or the name is taken
            (``name_taken``).
    """
    check_new_account(name, password)
    if session.scalar(select(Player.id).where(func.lower(Player.name) == name.lower())) is not None:
        raise UserError("This name is taken", "name_taken")
    first = not has_accounts(session)
    rec = Player(name=name, password_hash=generate_password_hash(password), is_test=False,
                 is_admin=admin or first, language=language, session_version=0)
    session.add(rec)
    session.flush()
    return rec


def _account(session: Session, name: str) -> Player:
    rec = session.scalar(select(Player).where(Player.name == name, Player.password_hash.is_not(None)))
    if rec is None:
        raise NotFoundError("There is no account ${name}", "no_account", name=name)
    return rec


def _not_last_admin(session: AnySession, rec: Player) -> None:
    if rec.is_admin and session.scalar(select(func.count()).select_from(Player)
                                       .where(Player.is_admin.is_(True))) == 1:
        raise UserError("${name} is the last admin: make another admin first", "last_admin", name=rec.name)


def add_account(platform: Engine, name: str, password: str, admin: bool = False) -> int:
    """``arena user add``: a new account; its id."""
    with Session(platform) as s, s.begin():
        return create_account(s, name, password, admin).id


def list_accounts(platform: Engine) -> list[Account]:
    """Every account, by name, with its roles."""
    with Session(platform) as s:
        grants: dict[int, list[str]] = {}
        for pid, game in s.execute(select(GameDeveloper.player_id, GameDeveloper.game)
                                   .order_by(GameDeveloper.game)):
            grants.setdefault(pid, []).append(game)
        rows = s.execute(select(Player.id, Player.name, Player.is_admin)
                         .where(Player.password_hash.is_not(None)).order_by(Player.name)).all()
        return [Account(r.id, r.name, bool(r.is_admin), tuple(grants.get(r.id, ()))) for r in rows]


def set_admin(platform: Engine, name: str, admin: bool) -> None:
    """Make ``name`` an admin, or no longer one.

    Raises:
        NotFoundError: no such account.
        UserError: it is the last admin (the site would have none).
    """
    with Session(platform) as s, s.begin():
        rec = _account(s, name)
        if not admin:
            _not_last_admin(s, rec)
        rec.is_admin = admin


def grant_developer(platform: Engine, name: str, game: str) -> bool:
    """``name`` develops ``game`` (its studio tables, tools, bug reports, releases); False
    when it already did."""
    with Session(platform) as s, s.begin():
        rec = _account(s, name)
        if s.get(GameDeveloper, (rec.id, game)) is not None:
            return False
        s.add(GameDeveloper(player_id=rec.id, game=game))
        return True


def revoke_developer(platform: Engine, name: str, game: str) -> bool:
    """``name`` no longer develops ``game``; False when it did not."""
    with Session(platform) as s, s.begin():
        rec = _account(s, name)
        grant = s.get(GameDeveloper, (rec.id, game))
        if grant is None:
            return False
        s.delete(grant)
        return True


def games_developed(session: AnySession, account_id: int) -> frozenset[str]:
    """The games ``account_id`` develops."""
    return frozenset(session.scalars(select(GameDeveloper.game).where(GameDeveloper.player_id == account_id)))


def set_password(platform: Engine, name: str, password: str) -> None:
    """A new password for ``name``; every session of the account ends."""
    check_password(password)
    with Session(platform) as s, s.begin():
        rec = _account(s, name)
        rec.password_hash = generate_password_hash(password)
        rec.session_version = (rec.session_version or 0) + 1


def end_sessions(session: AnySession, account_id: int) -> int:
    """Every signed-in cookie of ``account_id`` stops working; the new session version."""
    session.execute(update(Player).where(Player.id == account_id)
                    .values(session_version=Player.session_version + 1))
    return int(session.scalar(select(Player.session_version).where(Player.id == account_id)) or 0)


def remove_account(platform: Engine, name: str) -> bool:
    """The account can no longer sign in and has no role. A player who sat at tables keeps
    their row (the tables' history names them): True when the row itself was deleted.

    Raises:
        NotFoundError: no such account.
        UserError: it is the last admin.
    """
    with Session(platform) as s, s.begin():
        rec = _account(s, name)
        _not_last_admin(s, rec)
        s.execute(delete(GameDeveloper).where(GameDeveloper.player_id == rec.id))
        seated = s.scalar(select(func.count()).select_from(TableSeat).where(TableSeat.player_id == rec.id))
        if not seated:
            s.delete(rec)
            return True
        rec.password_hash = None
        rec.is_admin = False
        rec.session_version = (rec.session_version or 0) + 1
        return False
