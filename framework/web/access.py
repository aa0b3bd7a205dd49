"""Who may do what: every route's rule in one table (``RULES``), checked before every request.

Roles: an *admin* may do everything; a *developer* of a game owns its studio tables, studio
tools, bug reports, studio page and releases; a *player* is any signed-in account; anyone
else is *anonymous*. On the local studio (``ARENA_MODE=studio``, what ``arena serve`` runs)
the one local developer is signed in with every right and no account is needed; a
production site (``ARENA_MODE=production``: ``arena serve --production``) checks every rule.
``docs/security.md`` lists the rules (a test keeps it in step with ``RULES``).
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from flask import Flask, current_app, flash, g, redirect, request, url_for
from sqlalchemy import select
from sqlalchemy.orm import Session

from framework.core.errors import ConfigError, UserError
from framework.core.kinds import TableMode
from framework.platform.accounts import games_developed
from framework.platform.models import BugReport, db
from framework.web.auth import current_account
from framework.web.current import error_response, site, wants_json

log = logging.getLogger(__name__)


class SiteMode(StrEnum):
    """``ARENA_MODE``: the local studio (every right, no accounts needed) or a site with roles."""

    STUDIO = "studio"
    PRODUCTION = "production"


class Spectators(StrEnum):
    """``ARENA_SPECTATORS``: who may watch a production table without sitting at it."""

    ANYONE = "anyone"
    SIGNED_IN = "signed-in"


class Need(StrEnum):
    """What a route needs of whoever asks."""

    ANYONE = "anyone"
    SIGNED_IN = "signed-in"
    DEVELOPER = "developer"
    GAME_DEVELOPER = "game-developer"
    BUG_DEVELOPER = "bug-developer"
    STUDIO_TABLE = "studio-table"
    TABLE_PLAYER = "table-player"
    TABLE_VIEWER = "table-viewer"
    NEW_TABLE = "new-table"


#: what each need means, as docs/security.md says it
NEEDS: dict[Need, str] = {
    Need.ANYONE: "anyone, signed in or not",
    Need.SIGNED_IN: "a signed-in player",
    Need.DEVELOPER: "a developer of some game, or an admin (each sees the games they develop)",
    Need.GAME_DEVELOPER: "a developer of the game in the address, or an admin",
    Need.BUG_DEVELOPER: "a developer of the bug report's game, or an admin",
    Need.STUDIO_TABLE: "a developer of the table's game, or an admin",
    Need.TABLE_PLAYER: "studio table: a developer of its game or an admin; production table: a "
                       "signed-in player (the view then checks the seat)",
    Need.TABLE_VIEWER: "studio table: a developer of its game or an admin; production table: as "
                       "ARENA_SPECTATORS allows (anyone, or signed-in players)",
    Need.NEW_TABLE: "a studio table: a developer of the form's game or an admin; a production "
                    "table: a signed-in player",
}

#: endpoint -> what it needs. A route missing here is refused to everyone but the local
#: studio (and tests/web/test_access.py fails).
RULES: dict[str, Need] = {
    "static": Need.ANYONE,
    "auth.login": Need.ANYONE,
    "auth.logout": Need.ANYONE,
    "auth.register": Need.ANYONE,
    "language.set_language": Need.ANYONE,
    "lobby.index": Need.ANYONE,
    "lobby.favicon": Need.ANYONE,
    "gamehelp.index": Need.ANYONE,
    "gamehelp.page": Need.ANYONE,
    "control.news": Need.ANYONE,
    "auth.password": Need.SIGNED_IN,
    "players.me": Need.SIGNED_IN,
    "players.player": Need.SIGNED_IN,
    "preferences.set_preference": Need.SIGNED_IN,
    "lobby.join": Need.SIGNED_IN,
    "lobby.leave_open": Need.SIGNED_IN,
    "lobby.create_table": Need.NEW_TABLE,
    "control.game_page": Need.GAME_DEVELOPER,
    "control.build": Need.GAME_DEVELOPER,
    "control.check": Need.GAME_DEVELOPER,
    "control.deploy": Need.GAME_DEVELOPER,
    "control.rollback": Need.GAME_DEVELOPER,
    "control.block": Need.GAME_DEVELOPER,
    "control.status": Need.GAME_DEVELOPER,
    "studio.bugs": Need.DEVELOPER,
    "studio.bug": Need.BUG_DEVELOPER,
    "studio.reopen": Need.BUG_DEVELOPER,
    "studio.save": Need.STUDIO_TABLE,
    "studio.load": Need.STUDIO_TABLE,
    "studio.jump": Need.STUDIO_TABLE,
    "studio.bot": Need.STUDIO_TABLE,
    "studio.errors": Need.STUDIO_TABLE,
    "studio.database": Need.STUDIO_TABLE,
    "studio.report_bug": Need.STUDIO_TABLE,
    "play.act": Need.TABLE_PLAYER,
    "play.leave": Need.TABLE_PLAYER,
    "play.table_page": Need.TABLE_VIEWER,
    "play.data": Need.TABLE_VIEWER,
    "play.events": Need.TABLE_VIEWER,
    "play.game_log": Need.TABLE_VIEWER,
    "play.replay": Need.TABLE_VIEWER,
    "play.game_static": Need.TABLE_VIEWER,
    "play.players": Need.TABLE_VIEWER,
    "live_reload.table_status": Need.TABLE_VIEWER,
    # the table's features (chat, last trick, end-of-game statistics): the views check seats
    "chat.lines": Need.TABLE_VIEWER,
    "chat.write": Need.TABLE_VIEWER,
    "chat.hide": Need.STUDIO_TABLE,
    "play.last_trick": Need.TABLE_VIEWER,
    "play.end_statistics": Need.TABLE_VIEWER,
}


class SignInRequiredError(UserError):
    """The route needs a signed-in account and the request has none."""

    http_status = 401


class ForbiddenError(UserError):
    """The signed-in account lacks the role the route needs."""

    http_status = 403


@dataclass
class Principal:
    """Who asks: an account (with its roles), nobody, or the local studio's developer."""

    account_id: int | None = None
    name: str | None = None
    is_admin: bool = False
    local: bool = False
    _games: frozenset[str] | None = field(default=None, repr=False)

    @property
    def signed_in(self) -> bool:
        return self.local or self.account_id is not None

    @property
    def games(self) -> frozenset[str]:
        """The games this account develops (read once per request, when first asked)."""
        if self._games is None:
            if self.account_id is None:
                self._games = frozenset()
            else:
                # its own session: a view may ask inside its own db.session block
                with Session(site().platform) as s:
                    self._games = games_developed(s, self.account_id)
        return self._games

    def can_develop(self, game: str) -> bool:
        return self.local or self.is_admin or (self.account_id is not None and game in self.games)

    @property
    def is_developer(self) -> bool:
        return self.local or self.is_admin or bool(self.games)


LOCAL_DEVELOPER = Principal(name="studio", is_admin=True, local=True, _games=frozenset())


def site_mode(app: Flask | None = None) -> SiteMode:
    return SiteMode((app or current_app).config["ARENA_MODE"])


def is_studio_site() -> bool:
    return site_mode() is SiteMode.STUDIO


def principal() -> Principal:
    """Who this request speaks for (worked out once per request)."""
    found = g.get("principal")
    if found is None:
        if is_studio_site():
            found = LOCAL_DEVELOPER
        else:
            account = current_account()
            found = (Principal(account["id"], account["name"], bool(account.get("is_admin")))
                     if account is not None else Principal())
        g.principal = found
    return found  # type: ignore[no-any-return]


def _table_game(args: dict[str, Any]) -> tuple[str, str]:
    info = site().runtime.table_info(int(args["table_id"]))
    return info.game, info.mode


def _bug_game(args: dict[str, Any]) -> str | None:
    with db.session.begin():
        return db.session.scalar(select(BugReport.game).where(BugReport.id == int(args["bug_id"])))


def _require_developer(who: Principal, game: str) -> None:
    if not who.signed_in:
        raise SignInRequiredError("Sign in first", "sign_in_required")
    if not who.can_develop(game):
        raise ForbiddenError("Only the developers of ${game} and the site's admins may do this",
                             "forbidden", game=game[:64])


def _require_signed_in(who: Principal) -> None:
    if not who.signed_in:
        raise SignInRequiredError("Sign in first", "sign_in_required")


def check(need: Need, who: Principal, args: dict[str, Any]) -> None:
    """``who`` may use a route that needs ``need`` with the path's ``args``.

    Raises:
        SignInRequiredError: nobody is signed in and the route needs someone.
        ForbiddenError: the account lacks the role.
        NotFoundError: the table in the path does not exist.
    """
    if who.local or need is Need.ANYONE:
        return
    if need is Need.SIGNED_IN:
        _require_signed_in(who)
    elif need is Need.DEVELOPER:
        _require_signed_in(who)
        if not who.is_developer:
            raise ForbiddenError("Only developers and the site's admins may do this", "forbidden")
    elif need is Need.GAME_DEVELOPER:
        _require_developer(who, str(args.get("game", "")))
    elif need is Need.BUG_DEVELOPER:
        game = _bug_game(args)
        if game is not None:  # no such report: the view answers 404
            _require_developer(who, game)
        else:
            _require_signed_in(who)
    elif need is Need.STUDIO_TABLE:
        _require_developer(who, _table_game(args)[0])
    elif need in (Need.TABLE_PLAYER, Need.TABLE_VIEWER):
        game, mode = _table_game(args)
        if mode == TableMode.STUDIO:
            _require_developer(who, game)
        elif need is Need.TABLE_PLAYER or current_app.config["ARENA_SPECTATORS"] != Spectators.ANYONE:
            _require_signed_in(who)
    elif need is Need.NEW_TABLE:
        if request.form.get("mode", TableMode.STUDIO) == TableMode.PRODUCTION:
            _require_signed_in(who)
        else:
            _require_developer(who, request.form.get("game", ""))


def _check_request() -> Any:
    if is_studio_site() or request.endpoint is None:  # no route: routing answers 404/405
        return None
    need = RULES.get(request.endpoint)
    if need is None:
        log.error("route %s has no access rule: refused (add it to framework.web.access.RULES)",
                  request.endpoint)
        return error_response(403, "forbidden", g.translate("This page is closed"))
    try:
        check(need, principal(), dict(request.view_args or {}))
    except SignInRequiredError as exc:
        if wants_json():
            raise
        flash(exc.render(g.translate))
        target = request.full_path.rstrip("?") if request.method == "GET" else None
        return redirect(url_for("auth.login", next=target))
    return None


def init_app(app: Flask) -> None:
    """``ARENA_MODE`` (default: the environment's, else ``studio``) and ``ARENA_SPECTATORS``
    (default ``anyone``), then the check before every request."""
    mode = app.config.get("ARENA_MODE") or os.environ.get("ARENA_MODE") or SiteMode.STUDIO
    try:
        app.config["ARENA_MODE"] = SiteMode(mode)
    except ValueError:
        raise ConfigError(f"ARENA_MODE is 'studio' or 'production', not {mode!r}") from None
    spectators = app.config.get("ARENA_SPECTATORS") or os.environ.get("ARENA_SPECTATORS") or Spectators.ANYONE
    try:
        app.config["ARENA_SPECTATORS"] = Spectators(spectators)
    except ValueError:
        raise ConfigError(f"ARENA_SPECTATORS is 'anyone' or 'signed-in', not {spectators!r}") from None
    app.before_request(_check_request)
