"""Creating a table: its registry row and seats, its database (the framework's tables, the
game's dbmodel.sql, their copies), the players and the game's setup."""

from __future__ import annotations

import functools
import logging
import secrets
import traceback
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from importlib.resources import files
from typing import Any, cast

from sqlalchemy import Engine, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from framework.core.errors import ArenaError, ConfigError, GameSystemError, UserError
from framework.core.kinds import TableMode, TablePhase
from framework.engine.copies import create_copies
from framework.engine.directory import TableDirectory
from framework.engine.replays import record_start
from framework.engine.settle import StateDriver
from framework.game.globals import (
    GLOBAL_ACTIVE_PLAYER,
    GLOBAL_MOVE,
    GLOBAL_PROGRESSION,
    GLOBAL_STATE,
    NOT_ACTED,
    acted_global,
)
from framework.game.modern.dispatch import first_state_id
from framework.game.registry import GameDefinition
from framework.game.states import SETUP_STATE_ID
from framework.game.table import ActionContext, Table
from framework.game.table_database import SCHEMA_STAMP_KEY
from framework.platform.accounts import test_player_name
from framework.platform.models import GameTableRecord, Player, TableSeat
from framework.storage.base import COPY_PREFIXES, TableConnection
from framework.storage.catalog import copy_signature, read_catalog
from framework.storage.sql.dbmodel import SchemaStatement, framework_tables, translate_schema
from framework.storage.sql.errors import SchemaError, SQLError, Target
from framework.storage.sql.names import quote_identifier

log = logging.getLogger(__name__)

#: Characters of a table's seed (``game_tables.seed``).
MAX_SEED_LENGTH = 64


def default_tables_sql() -> str:
    """The framework's own tables (``global``, ``stats``, ``gamelog``, ``player``...), in
    MySQL's dialect like a game's dbmodel.sql."""
    return files("framework.storage").joinpath("default_tables.sql").read_text(encoding="utf-8")


class TableFactory:
    """Creates tables (``create_table``) and the platform's players they seat."""

    def __init__(
        self, platform: Engine, directory: TableDirectory, driver: StateDriver,
        now: Callable[[], datetime],
        production_release: Callable[[str], tuple[str, GameDefinition] | None] | None,
        record_finish: Callable[[int], None],
    ) -> None:
        self.platform = platform
        self.directory = directory
        self.driver = driver
        self.now = now
        self.production_release = production_release
        self.record_finish = record_finish

    def ensure_player(self, name: str, is_test: bool = True) -> int:
        """The platform player called ``name`` (created if new); their id."""
        for attempt in (1, 2):
            try:
                with Session(self.platform) as s, s.begin():
                    rec = s.scalar(select(Player).where(Player.name == name))
                    if rec is None:
                        rec = Player(name=name, is_test=is_test)
                        s.add(rec)
                        s.flush()
                    elif is_test and rec.password_hash is not None:
                        # a real account never takes a test player's seat (and hand)
                        raise UserError("${name} is an account, not a test player: a studio table "
                                        "seats test players only", "account_not_test_player", name=name)
                    return rec.id
            except IntegrityError:
                if attempt == 2:
                    raise
                # another request created the same player at the same moment: read it
        raise AssertionError("unreachable")

    def create_table(
        self,
        game: str,
        players: int | Sequence[str] = 0,
        options: Mapping[Any, Any] | None = None,
        seed: str | int | None = None,
        mode: str = TableMode.STUDIO,
        bots: Sequence[int] | Mapping[int, str] = (),
        release_version: str | None = None,
        definition: GameDefinition | None = None,
        simulated: bool = False,
    ) -> int:
        """``Runtime.create_table``."""
        registry = self.directory.registry
        if mode not in tuple(TableMode):
            raise UserError("A table is 'studio' or 'production', not ${mode}", "bad_mode", mode=mode)
        if mode == TableMode.PRODUCTION and definition is None:
            registry.get(game)  # an unknown game is reported as such
            found = self.production_release(game) if self.production_release else None
            if found is None:
                raise UserError(
                    "No release of ${game} is in production: build and deploy one first",
                    "no_release", game=game,
                )
            release_version, definition = found
        gdef = definition or registry.get(game)
        names = [test_player_name(i) for i in range(players)] if isinstance(players, int) else list(players)
        gdef.check_player_count(len(names))
        if len(set(names)) != len(names):
            raise UserError("A player cannot take two seats", "duplicate_player")
        bot_kinds = dict(bots) if isinstance(bots, Mapping) else {seat: "default" for seat in bots}
        for seat in bot_kinds:
            if not isinstance(seat, int) or not 0 <= seat < len(names):
                raise UserError("There is no seat ${seat} for a bot", "bad_seat", seat=seat)
        chosen = gdef.options.resolve(options or {})
        seed_text = str(seed) if seed is not None else secrets.token_hex(8)
        if len(seed_text) > MAX_SEED_LENGTH:  # the platform's column holds no more
            raise UserError("A seed has at most ${max} characters", "bad_seed", max=MAX_SEED_LENGTH)
        player_ids = [self.ensure_player(n, is_test=(mode == TableMode.STUDIO)) for n in names]
        with Session(self.platform) as s, s.begin():
            rec = GameTableRecord(
                game=gdef.name, mode=mode, status=TablePhase.SETUP, seed=seed_text,
                options={str(k): v for k, v in chosen.items()}, release_version=release_version,
                progression=0, blocked=False, simulated=simulated,
            )
            s.add(rec)
            s.flush()
            table_id = rec.id
            for no, pid in enumerate(player_ids):
                s.add(TableSeat(table_id=table_id, player_id=pid, player_no=no + 1, is_bot=no in bots))
        try:
            with self.directory.store.create(table_id) as db:
                create_schema(gdef, db)
                table = gdef.table_class(ActionContext(db=db, now=self.now))
                _setup(table, gdef, names, player_ids, chosen, seed_text, bot_kinds, release_version)
                record_start(db)  # where a replay begins: set up, before any state's action or bot
                self.driver.settle(table, gdef)
        except BaseException as exc:
            with Session(self.platform) as s, s.begin():
                s.query(TableSeat).filter_by(table_id=table_id).delete()
                s.query(GameTableRecord).filter_by(id=table_id).delete()
            if isinstance(exc, ArenaError):
                raise
            if isinstance(exc, Exception):
                tb = traceback.format_exc()
                log.error("setup of %s failed:\n%s", gdef.name, tb)
                raise GameSystemError(f"setup of {gdef.name} failed: {exc!r}") from exc
            raise
        with Session(self.platform) as s, s.begin():
            rec2 = s.get(GameTableRecord, table_id)
            assert rec2 is not None
            # A game over already (bots only) is marked finished by record_finish, which
            # records the seats' results only for a table not marked so yet.
            rec2.status = TablePhase.PLAYING
        if table.gamestate.is_game_over():
            self.record_finish(table_id)
        return table_id


def create_schema(gdef: GameDefinition, db: TableConnection) -> None:
    """A new table's database for ``gdef`` (``create_tables`` with its dbmodel.sql).

    Raises:
        ConfigError: dbmodel.sql does not translate, or the database refuses a statement
            (the file, the line and the statement named).
    """
    try:
        create_tables(db, gdef.dbmodel, f"games/{gdef.name}/dbmodel.sql")
    except SQLError as exc:
        raise ConfigError(f"game {gdef.name!r}: {exc}") from exc


def create_tables(db: TableConnection, dbmodel: str, filename: str = "dbmodel.sql") -> None:
    """The framework's tables and their copies, then ``dbmodel`` (which may change those
    copies, as on BGA), then the copies of the game's tables, every copy in step with its
    live table.

    Raises:
        SchemaError: ``dbmodel`` does not translate, or the database refuses one of its
            statements (the file, the line and the statement named).
    """
    for statement in _translated(default_tables_sql(), db.dialect, "default_tables.sql", framework=True):
        db.execute(statement.sql)
    create_copies(db)
    if dbmodel.strip():
        for statement in _translated(dbmodel, db.dialect, filename, framework=False):
            try:
                db.execute(statement.sql)
            except ArenaError:  # the machine's failure (a full disk...), not the file's
                raise
            except Exception as exc:
                raise SchemaError(f"the database refused it: {exc}", filename=filename,
                                  line=statement.line, statement=statement.source) from exc
    _copies_in_step(db)


def _copies_in_step(db: TableConnection) -> None:
    """Every live table's copies, made now if missing, made again if dbmodel.sql left them
    with other columns than the live table (``copy_signature``, what an upgrade's
    ``sync_copies`` checks). Copies are still empty here."""
    tables = read_catalog(db)
    for name, table in tables.items():
        if name.startswith(COPY_PREFIXES):
            continue
        signature = copy_signature(db.dialect, table)
        for prefix in COPY_PREFIXES:
            copy = tables.get(prefix + name)
            if copy is not None and copy_signature(db.dialect, copy) == signature:
                continue
            if copy is not None:
                db.execute(f"DROP TABLE {quote_identifier(prefix + name, db.dialect, keep_case=True)}")
            db.copy_structure(name, prefix + name)


def _setup(
    table: Table, gdef: GameDefinition, names: list[str], player_ids: list[int],
    options: Mapping[int, int], seed: str, bots: Mapping[int, str], release: str | None,
) -> None:
    """The players' rows, the framework's globals and meta, the game's ``setup_new_game``,
    then the setup state's transition."""
    colors = gdef.info.player_colors
    for no, (pid, name) in enumerate(zip(player_ids, names, strict=True)):
        table.db_query(
            "INSERT INTO player (player_id, player_no, player_name, player_color, player_ai, "
            "player_remaining_reflexion_time) VALUES (%s, %s, %s, %s, %s, %s)",
            (pid, no + 1, name, colors[no % len(colors)], 1 if no in bots else 0,
             gdef.info.reflexion_time_s),
        )
    for gid in (GLOBAL_STATE, GLOBAL_ACTIVE_PLAYER, GLOBAL_MOVE, GLOBAL_PROGRESSION):
        table.db_query("INSERT INTO global (global_id, global_value) VALUES (%s, %s)",
                       (gid, SETUP_STATE_ID if gid == GLOBAL_STATE else 0))
    for oid, value in options.items():
        table.db_query("INSERT INTO global (global_id, global_value) VALUES (%s, %s)", (oid, value))
    for no in range(1, len(player_ids) + 1):  # no move acted from yet (a missing row: an older table)
        table.db_query("INSERT INTO global (global_id, global_value) VALUES (%s, %s)",
                       (acted_global(no), NOT_ACTED))
    table.set_meta("seed", seed)
    table.set_meta("game", gdef.name)
    for seat, kind in bots.items():
        table.set_meta(f"bot:{player_ids[seat]}", str(kind))
    if release:
        table.set_meta("release", release)
        # Made by this release's dbmodel.sql, copies included (a DDL of setup forgets it).
        table.set_meta(SCHEMA_STAMP_KEY, release)
    infos = table.load_players_basic_infos()
    first = table.setup_new_game(infos, dict(options))  # nobody is active yet, as on BGA
    if not table.get_active_player_id():
        table.gamestate.change_active_player(player_ids[0])
    table.context.entered_states.clear()
    setup = gdef.states[SETUP_STATE_ID]
    target = setup.transitions.get("", next(iter(setup.transitions.values())))
    if first is not None:  # today's BGA style: setup_new_game returns the first state
        target = first_state_id(gdef, first)
    table.gamestate.jump_to_state(target)


@functools.lru_cache(maxsize=64)
def _translated(text: str, dialect: str, filename: str, *, framework: bool) -> tuple[SchemaStatement, ...]:
    """A schema file's statements for ``dialect``, translated once per process (sqlglot costs
    tens of milliseconds for a whole file; every new table needs them): the framework's own
    tables (``framework``), or a game's dbmodel.sql run after them and their copies."""
    target = cast("Target", dialect)
    if framework:
        return tuple(translate_schema(text, target, filename, reserved=frozenset()))
    known = framework_tables(default_tables_sql())
    return tuple(translate_schema(text, target, filename, known=known))
