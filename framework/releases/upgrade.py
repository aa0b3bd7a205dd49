"""Upgrading production tables to the production release: one transaction per table."""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine, select, update
from sqlalchemy.orm import Session

from framework.core.clock import utcnow
from framework.core.errors import BlockedError, GameSystemError, NotFoundError
from framework.core.kinds import TableMode, TablePhase
from framework.engine.notices import NOTICE_KEY
from framework.engine.runtime import TableInfo
from framework.game.registry import GameDefinition
from framework.game.table import ActionContext, Table
from framework.game.table_database import SCHEMA_STAMP_KEY
from framework.platform.models import GameRecord, GameTableRecord
from framework.releases import schema as schema_mod
from framework.releases.builds import load_release, release_manifest, version_int
from framework.releases.context import ReleaseContext
from framework.releases.migrate import CopyNeededError, TableMigrator, in_upgrade, sync_copies
from framework.releases.notice import PASSED_KEY, announce, passed_value, passed_version
from framework.releases.upgrade_rows import UpgradeRows, insert_stats, read_upgrade_rows, write_metas
from framework.storage.base import Result, TableConnection
from framework.storage.sql.shapes import SchemaShapes
from framework.storage.table_shapes import shapes_of

log = logging.getLogger(__name__)


class UpgradeError(GameSystemError):
    """A table could not be brought to the new release; it stays on its old one."""


@dataclass
class UpgradeOutcome:
    table_id: int
    from_version: str | None
    to_version: str | None
    status: str  # upgraded | current | failed | would_upgrade | deferred
    error: str | None = None
    changes: list[str] | None = None


# A statement that adds to a table (a column, a key) and writes no row, in any dialect.
_ADDS = re.compile(r"\s*ALTER\s+TABLE\s+(?:`[^`]+`|\"[^\"]+\"|\w+)\s+ADD\s", re.IGNORECASE)


class _CountingConnection:
    """A table connection that counts the statements sent through it (to know whether
    ``upgrade_table_db`` touched anything), and keeps what changes a schema: every
    statement sent, with its parameters (``sent``), unless something went where it cannot
    see (``opaque``)."""

    def __init__(self, db: TableConnection) -> None:
        self.db = db
        self.dialect = db.dialect
        self.table_id = db.table_id
        self.statements = 0
        # Whether everything sent was ``ALTER TABLE ... ADD`` (and catalog look-ups): the
        # rows the upgrade read before, and the ``Table`` (which read nothing), still hold.
        self.only_added = True
        self.sent: list[Hashable] = []
        self.opaque = False

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Result:
        self.statements += 1
        if self.only_added and _ADDS.match(sql) is None:
            self.only_added = False
        if not self.opaque:
            try:
                entry = (sql, tuple(params))
                hash(entry)
                self.sent.append(entry)
            except TypeError:  # a parameter that is no plain value
                self.opaque = True
        return self.db.execute(sql, params)

    def table_names(self) -> list[str]:
        self.statements += 1
        return self.db.table_names()

    def column_names(self, table: str) -> list[str]:
        self.statements += 1
        return self.db.column_names(table)

    def copy_structure(self, source: str, target: str) -> None:
        self.statements += 1
        self.only_added = False
        self.sent.append(("copy_structure", source, target))
        self.db.copy_structure(source, target)

    def dbapi_connection(self) -> Any:
        self.statements += 1  # whatever runs through it is not seen here
        self.only_added = False
        self.opaque = True
        return self.db.dbapi_connection()

    @property
    def schema_shapes(self) -> SchemaShapes | None:  # the connection's own, read or set
        return self.db.schema_shapes

    @schema_shapes.setter
    def schema_shapes(self, shapes: SchemaShapes | None) -> None:
        self.db.schema_shapes = shapes

    def __getattr__(self, name: str) -> Any:  # a backend's extras (all_columns...)
        return getattr(self.db, name)


def apply_upgrade(db: TableConnection, gdef: GameDefinition, from_version: str | None,
                  to_version: str, expected: schema_mod.Schema | None = None,
                  rows: UpgradeRows | None = None, notes: str | None = None,
                  manifest_schemas: Sequence[schema_mod.Schema] | None = None) -> list[str]:
    """Run ``gdef``'s ``upgrade_table_db`` and the framework's own duties on an open
    transaction: new statistics, options and globals get their defaults, copies follow the
    live tables, the table's state must still exist. Returns what changed.

    ``rows``: the table's ``read_upgrade_rows(db, UPGRADE_META_KEYS)`` if the caller has
    just read them. ``notes``: the players are told (a log line that reloads their pages,
    and the page's notice with these release notes) in the same transaction.
    ``manifest_schemas``: both releases' schemas on this backend as their manifests say.
    A table whose stamp (``SCHEMA_STAMP_KEY``) says it has ``from_version``'s schema gets
    the table shapes of an earlier table with that stamp, with no catalog read; when both
    schemas are the same and ``upgrade_table_db`` sends nothing, it has ``to_version``'s
    schema, and no catalog is read at all.

    Raises:
        UpgradeError: anything failed (the caller rolls the transaction back).
    """
    if rows is None:
        rows = read_upgrade_rows(db, UPGRADE_META_KEYS)
    stamped = (manifest_schemas is not None and from_version is not None
               and rows.metas.get(SCHEMA_STAMP_KEY) == from_version)
    before = manifest_schemas[0] if manifest_schemas is not None else None
    # A server's catalog, read once: the game statements' table shapes come from it, and it
    # still holds at the schema check if the step sends nothing. (SQLite reads its shapes
    # and its definition from its own file, in no round trip.) A stamped table has
    # ``before``: the shapes of another table that had it serve.
    known: Hashable | None = None
    if not (stamped and _stamped_shapes(db, before)):
        if db.dialect != "sqlite":
            known = schema_mod.snapshot(db)
            schema_mod.know_shapes(db, known)
        if stamped:
            _remember_shapes(db, before)  # the servers' (SQLite reads its own when needed)
    counting = _CountingConnection(db)
    table: Table = gdef.table_class(ActionContext(db=counting, now=utcnow))
    # A table rolled back after an upgrade has been through that upgrade's steps already:
    # they get the highest release its data has passed, so none runs twice.
    from_int = version_int(passed_version(table, from_version, rows.metas.get(PASSED_KEY), known=True))
    migrator = TableMigrator(counting)
    table.migrate = migrator
    changes: list[str] = []
    try:
        table.upgrade_table_db(from_int)
        changes += migrator.changed
    except Exception as exc:
        raise UpgradeError(f"upgrade_table_db({from_int}) failed: {exc!r}") from exc
    finally:
        migrator.close()
        table.migrate = None
    untouched = not (counting.statements or migrator.changed)
    step = _step_key(db, counting, before, expected) if stamped and not untouched else None
    replayed = False
    if not untouched:
        if not (counting.only_added and migrator.changed_only_added()):
            # The step changed rows: fresh caches (after DDL too), its rows read again.
            table = gdef.table_class(ActionContext(db=db, now=utcnow))
            rows = read_upgrade_rows(db, UPGRADE_META_KEYS)
        replayed = _replayed_step(db, step, before, expected)
        # Else the step is done: its catalog, once, for the shapes and the check.
        known = None if replayed else _catalog_now(db)
    state_id = table.gamestate.state_id()
    if state_id not in gdef.states.by_id:
        raise UpgradeError(f"the table is in state {state_id}, which release {to_version} does not have")
    changes += _initialise_new_stats(table, gdef, rows.stats)
    changes += _initialise_new_globals(table, gdef, rows.globals)
    if stamped and untouched:
        _remember_shapes(db, before)  # still ``before``'s: no DDL ran
    # The schema was from_version's, the same as to_version's; or the step sent what it
    # sent to an earlier table of that schema, whose result passed:
    checked = replayed or (stamped and untouched and manifest_schemas is not None
                           and manifest_schemas[0] == manifest_schemas[1])
    if not checked:
        synced, checked = _sync_and_check(db, expected, known, to_version)
        changes += synced
        if step is not None and checked and not synced:
            _remember_step(db, step, before, expected)
    # The stamp names the release whose schema the table now provably has (none unchecked).
    metas = {"release": to_version, SCHEMA_STAMP_KEY: to_version if checked else ""}
    passed = passed_value(rows.metas.get(PASSED_KEY), to_version)
    if passed is not None:
        metas[PASSED_KEY] = passed
    if notes is not None:
        metas[NOTICE_KEY] = announce(table, "upgrade", from_version, to_version, notes)
    write_metas(db, metas)
    table.touch()  # a write like any other: what workers keep of the table is stale now
    return changes


def _sync_and_check(db: TableConnection, expected: schema_mod.Schema | None, known: Hashable | None,
                    to_version: str) -> tuple[list[str], bool]:
    """The copies made to follow their live tables, then the schema compared with
    ``expected``: what changed, and whether it was checked.

    Raises:
        UpgradeError: the schema is not ``expected``.
    """
    # The new statistics and globals are rows: the schema is still ``known``'s (on MariaDB
    # with DDL, a table they write is copied as it was).
    before_sync = known if known is not None else schema_mod.snapshot(db)  # one read for both
    synced = sync_copies(db, before_sync)
    if expected is None:
        return synced, False
    problems = schema_mod.problems(expected, db, None if synced else before_sync)
    if problems:
        raise UpgradeError(
            f"after upgrade_table_db the schema is not release {to_version}'s: " + "; ".join(problems[:8])
        )
    return synced, True


# The steps seen on stamped tables whose result passed the check with nothing to mend (by
# the schema before, the statements sent and the schema expected): the table shapes after.
_STEPS: dict[Hashable, tuple[schema_mod.Schema, schema_mod.Schema, SchemaShapes]] = {}


def _step_key(db: TableConnection, counting: _CountingConnection, before: schema_mod.Schema | None,
              expected: schema_mod.Schema | None) -> Hashable | None:
    """What determines a step's resulting schema, taken as soon as it returns: the schema it
    started from and everything it sent, in order (DDL run on equal schemas makes equal
    schemas). None when the step sent something unseen, or on MariaDB's work database
    (``mysql_overlay``)."""
    if counting.opaque or before is None or expected is None or getattr(db, "overlay", None) is not None:
        return None
    return (db.dialect, id(before), id(expected), tuple(counting.sent))


def _replayed_step(db: TableConnection, step: Hashable | None, before: schema_mod.Schema | None,
                   expected: schema_mod.Schema | None) -> bool:
    """Whether an earlier table of schema ``before`` was sent the same step, with a result
    that passed; then ``db`` gets the table shapes after it."""
    hit = _STEPS.get(step) if step is not None else None
    if hit is None or hit[0] is not before or hit[1] is not expected:
        return False
    send_held = getattr(db, "send_held", None)  # MariaDB: sending held DDL forgets the shapes
    if send_held is not None:
        send_held()
    db.schema_shapes = hit[2]
    return True


def _remember_step(db: TableConnection, step: Hashable, before: schema_mod.Schema | None,
                   expected: schema_mod.Schema | None) -> None:
    if before is not None and expected is not None:
        shapes = db.schema_shapes if db.schema_shapes is not None else shapes_of(db)
        schema_mod.remember(_STEPS, step, (before, expected, shapes), 32)


def _catalog_now(db: TableConnection) -> Hashable | None:
    """A server's catalog (``schema.snapshot``), its table shapes given to ``db``; None on
    SQLite, which reads its own when needed."""
    if db.dialect == "sqlite":
        return None
    known = schema_mod.snapshot(db)
    schema_mod.know_shapes(db, known)
    return known


#: The ``arena_meta`` values an upgrade reads before it runs.
UPGRADE_META_KEYS = ("release", PASSED_KEY, SCHEMA_STAMP_KEY)

# The table shapes of the stamped tables of a release schema (by the schema's identity: a
# process keeps each release's schema once), read from the first one's catalog.
_STAMPED_SHAPES: dict[Hashable, tuple[schema_mod.Schema, Any]] = {}


def _stamped_shapes(db: TableConnection, schema: schema_mod.Schema | None) -> bool:
    """Give ``db`` the shapes of an earlier table stamped with ``schema``."""
    hit = _STAMPED_SHAPES.get(id(schema))
    if hit is None or hit[0] is not schema:
        return False
    if db.schema_shapes is None:
        db.schema_shapes = hit[1]
    return True


def _remember_shapes(db: TableConnection, schema: schema_mod.Schema | None) -> None:
    if schema is not None and db.schema_shapes is not None:
        schema_mod.remember(_STAMPED_SHAPES, id(schema), (schema, db.schema_shapes), 32)


def _initialise_new_stats(table: Table, gdef: GameDefinition,
                          present: frozenset[tuple[int, bool]]) -> list[str]:
    new_rows: list[tuple[int, int | None, Any]] = []
    changes = []
    for stat in gdef.stats.stats:
        if (stat.id, stat.scope == "table") not in present:
            value = stat.coerce(False if stat.type == "bool" else 0)
            targets: list[int | None] = (
                [None] if stat.scope == "table" else list(table.load_players_basic_infos()))
            new_rows += [(stat.id, pid, value) for pid in targets]
            changes.append(f"initialised statistic {stat.key}")
    insert_stats(table.context.db, new_rows)
    return changes


def _initialise_new_globals(table: Table, gdef: GameDefinition, present: frozenset[int]) -> list[str]:
    changes = []
    for opt in gdef.options.options.values():
        if opt.id not in present:
            table.set_game_state_initial_value(opt.id, opt.default)
            changes.append(f"option {opt.key} set to its default {opt.default}")
    defaults: dict[str, int] = getattr(gdef.table_class, "GLOBAL_DEFAULTS", {})
    for label, gid in gdef.table_class.GLOBALS.items():
        if gid not in present:
            table.set_game_state_initial_value(gid, int(defaults.get(label, 0)))
            changes.append(f"global {label} set to {defaults.get(label, 0)}")
    return changes


_SCHEMAS: dict[tuple[str, str, str, str], schema_mod.Schema] = {}


def _expected_schema(site: ReleaseContext, game: str, version: str) -> schema_mod.Schema:
    """A release's schema (releases never change, so it is kept once read). The manifest
    holds it as SQLite reflects it, and as the site's server does when the release was built
    there; otherwise a server backend reflects a fresh table of its own."""
    key = (str(site.instance_path), game, version, site.store.dialect)
    if key not in _SCHEMAS:
        manifest = release_manifest(site, game, version)
        built_here = (manifest.get("schemas") or {}).get(site.store.dialect)
        if site.store.dialect == "sqlite":
            _SCHEMAS[key] = schema_mod.from_json(manifest["schema"])
        elif built_here is not None:  # made on this server when the release was built
            _SCHEMAS[key] = schema_mod.from_json(built_here)
        else:
            from framework.releases.builds import fresh_schema

            _SCHEMAS[key] = fresh_schema(load_release(site, game, version), site.store)
    return _SCHEMAS[key]


_SERVER_SCHEMAS: dict[tuple[str, str, str, str], schema_mod.Schema | None] = {}


def _manifest_schemas(site: ReleaseContext, game: str, current: str | None,
                      target: str) -> list[schema_mod.Schema] | None:
    """Both releases' schemas on the site's backend as their manifests say them; None when
    one does not say (a release built before manifests held the server's schema, or none)."""
    if current is None:
        return None
    schemas = []
    for version in (current, target):
        key = (str(site.instance_path), game, version, site.store.dialect)
        if key not in _SERVER_SCHEMAS:
            try:
                manifest = release_manifest(site, game, version)
            except NotFoundError:
                manifest = {}
            if site.store.dialect == "sqlite":
                stored = manifest.get("schema")
            else:
                stored = (manifest.get("schemas") or {}).get(site.store.dialect)
            _SERVER_SCHEMAS[key] = None if stored is None else schema_mod.from_json(stored)
        found = _SERVER_SCHEMAS[key]
        if found is None:
            return None
        schemas.append(found)
    return schemas


_NOTES: dict[tuple[str, str, str], str] = {}


def release_notes(site: ReleaseContext, game: str, version: str) -> str:
    """A release's notes (kept once read: releases never change)."""
    key = (str(site.instance_path), game, version)
    if key not in _NOTES:
        _NOTES[key] = str(release_manifest(site, game, version).get("notes") or "")
    return _NOTES[key]


def production_version(site: ReleaseContext, game: str) -> str | None:
    with Session(site.platform) as s:
        rec = s.get(GameRecord, game)
        return rec.production_version if rec else None


Release = tuple[GameDefinition, schema_mod.Schema]


# Tables whose upgrade a player's move handed to a thread of its own (one at a time each).
_BACKGROUND: dict[int, threading.Thread] = {}
_BACKGROUND_LOCK = threading.Lock()


def background_upgrades() -> list[threading.Thread]:
    """The upgrades running behind players' moves (tests wait for them)."""
    with _BACKGROUND_LOCK:
        return list(_BACKGROUND.values())


def _upgrade_in_background(site: ReleaseContext, table_id: int) -> None:
    def run() -> None:
        try:
            upgrade_table(site, table_id)
        except Exception:  # upgrade_table logs a table's failure; this is anything else
            log.exception("background upgrade of table %s", table_id)
        finally:
            with _BACKGROUND_LOCK:
                _BACKGROUND.pop(table_id, None)

    with _BACKGROUND_LOCK:
        if table_id in _BACKGROUND:
            return
        thread = threading.Thread(target=run, name=f"upgrade-{table_id}", daemon=True)
        _BACKGROUND[table_id] = thread
    thread.start()


def upgrade_table(site: ReleaseContext, table_id: int, dry_run: bool = False,
                  known: tuple[str, str | None, str, str | None] | None = None,
                  record: bool = True, releases: dict[tuple[str, str], Release] | None = None,
                  in_move: bool = False) -> UpgradeOutcome:
    """Bring one production table to its game's production release.

    A failure leaves the table exactly as it was (its transaction rolls back), marks it
    blocked and logs the error; running again after a fixed release finishes the job.
    ``known`` (game, release, mode, production) saves the platform look-ups of a batch;
    with ``record=False`` the caller writes the new release to the platform afterwards;
    ``releases`` keeps the loaded releases and their schemas across a batch. ``in_move``:
    a player's move waits for it, so an upgrade that needs copies of tables (DDL on
    MariaDB) is not run there but in a thread of its own (status ``deferred``).
    """
    if known is None:
        with Session(site.platform) as s:
            rec = s.get(GameTableRecord, table_id)
            if rec is None:
                raise GameSystemError(f"no table {table_id}")
            game, current, mode = rec.game, rec.release_version, rec.mode
        target = production_version(site, game)
    else:
        game, current, mode, target = known
    if mode != TableMode.PRODUCTION or target is None or current == target:
        site.runtime.forget_table(table_id)  # another process may have moved it meanwhile
        return UpgradeOutcome(table_id, current, target, "current")
    if dry_run:
        return UpgradeOutcome(table_id, current, target, "would_upgrade")
    if in_move:
        with _BACKGROUND_LOCK:
            if table_id in _BACKGROUND:  # a move never waits for that copy: it is refused now
                return UpgradeOutcome(table_id, current, target, "deferred")
    try:
        release = releases.get((game, target)) if releases is not None else None
        if release is None:
            release = (load_release(site, game, target), _expected_schema(site, game, target))
            if releases is not None:
                releases[(game, target)] = release
        gdef, expected = release
        schemas = _manifest_schemas(site, game, current, target)

        def body(db: TableConnection) -> list[str]:
            rows = read_upgrade_rows(db, UPGRADE_META_KEYS)
            # The table database is the truth: a crash after its commit and before the
            # platform's leaves it already upgraded.
            if rows.metas.get("release") == target:
                return []
            return apply_upgrade(db, gdef, current, target, expected, rows,
                                 notes=release_notes(site, game, target),
                                 manifest_schemas=schemas)

        # One transaction per table; on MariaDB, whose DDL commits at once, a step with DDL
        # runs on copies of the tables it writes, swapped in only when everything succeeded.
        # The manifests' schemas differ: the upgrade surely runs DDL.
        changes = in_upgrade(site.store, table_id, body, copy_allowed=not in_move,
                             ddl_expected=schemas is not None and schemas[0] != schemas[1])
    except CopyNeededError:
        _upgrade_in_background(site, table_id)
        return UpgradeOutcome(table_id, current, target, "deferred")
    except Exception as exc:
        site.runtime.log_error(table_id, None, f"upgrade to {target}", exc)
        with Session(site.platform) as s, s.begin():
            row = s.get(GameTableRecord, table_id)
            if row is not None:
                row.blocked = True
        return UpgradeOutcome(table_id, current, target, "failed", str(exc))
    if record:
        _record_upgraded(site, [table_id], target)
    site.runtime.forget_table(table_id)
    site.runtime.changed(table_id)  # open pages here and in the other processes reload
    return UpgradeOutcome(table_id, current, target, "upgraded", changes=changes)


def _record_upgraded(site: ReleaseContext, table_ids: list[int], version: str) -> None:
    """The platform follows the table databases (which are the truth: a crash between the
    two is mended by the next run, which finds the table already at ``version``)."""
    if not table_ids:
        return
    with Session(site.platform) as s, s.begin():
        s.execute(update(GameTableRecord).where(GameTableRecord.id.in_(table_ids))
                  .values(release_version=version, blocked=False))


def upgrade_all(site: ReleaseContext, game: str | None = None, dry_run: bool = False,
                progress: Callable[[int], None] | None = None) -> dict[str, Any]:
    """Upgrade every production table in play (of ``game``); a summary of the run."""
    with Session(site.platform) as s:
        query = select(GameTableRecord.id, GameTableRecord.game, GameTableRecord.release_version).where(
            GameTableRecord.mode == TableMode.PRODUCTION, GameTableRecord.status != TablePhase.FINISHED)
        if game is not None:
            query = query.where(GameTableRecord.game == game)
        rows = s.execute(query.order_by(GameTableRecord.id)).all()
        targets = {name: rec.production_version for name in {r[1] for r in rows}
                   if (rec := s.get(GameRecord, name)) is not None}
    outcomes = []
    pending: dict[str, list[int]] = {}
    releases: dict[tuple[str, str], Release] = {}
    for table_id, table_game, current in rows:
        target = targets.get(table_game)
        outcome = upgrade_table(site, table_id, dry_run, (table_game, current, TableMode.PRODUCTION, target),
                                record=False, releases=releases)
        outcomes.append(outcome)
        if outcome.status == "upgraded" and target is not None:
            pending.setdefault(target, []).append(table_id)
            if len(pending[target]) >= 500:
                _record_upgraded(site, pending.pop(target), target)
        if progress is not None:
            progress(1)
    for version, ids in pending.items():
        _record_upgraded(site, ids, version)
    summary: dict[str, Any] = {"upgraded": 0, "current": 0, "failed": 0, "would_upgrade": 0}
    for o in outcomes:
        summary[o.status] += 1
    summary["failures"] = [{"table": o.table_id, "error": o.error} for o in outcomes if o.status == "failed"]
    return summary


def production_tables(site: ReleaseContext, game: str | None = None) -> list[int]:
    """Ids of the production tables still in play (of ``game``)."""
    with Session(site.platform) as s:
        query = select(GameTableRecord.id).where(GameTableRecord.mode == TableMode.PRODUCTION,
                                                 GameTableRecord.status != TablePhase.FINISHED)
        if game is not None:
            query = query.where(GameTableRecord.game == game)
        return list(s.scalars(query.order_by(GameTableRecord.id)))


def _move_check(platform: Engine, info: TableInfo) -> tuple[bool, str | None, str | None]:
    """What a production move needs of the platform database, in one statement (one round
    trip on the servers): whether the table is blocked, its game's production release and
    the release the registry records for the table (``info``'s when it has no row)."""
    target = select(GameRecord.production_version).where(GameRecord.name == info.game).scalar_subquery()
    with platform.connect() as conn:
        row = conn.execute(select(GameTableRecord.blocked, GameTableRecord.release_version, target)
                           .where(GameTableRecord.id == info.id)).first()
        if row is None:  # the registry lost the row meanwhile: the game's release only
            return False, conn.execute(select(target)).scalar(), info.release_version
    return bool(row[0]), row[2], row[1]


def before_action(site: ReleaseContext) -> Callable[[TableInfo], TableInfo]:
    """The runtime's hook: refuse blocked tables, upgrade a table that is behind (lazily)."""

    def hook(info: TableInfo) -> TableInfo:
        if info.mode != TableMode.PRODUCTION:
            return info
        blocked, target, recorded = _move_check(site.platform, info)
        if recorded != info.release_version:
            site.runtime.forget_table(info.id)  # another process upgraded or rolled it back
        if not blocked and target is not None and target != recorded:
            outcome = upgrade_table(site, info.id, in_move=True)
            if outcome.status == "deferred":
                raise BlockedError(
                    "This table is moving to a new release of the game; your move was not sent. "
                    "Try again in a moment.", "table_upgrading",
                )
            blocked = outcome.status == "failed"
        if blocked:
            raise BlockedError(
                "This table is waiting for a fix of the game; your move was not sent. "
                "Try again later.", "table_blocked",
            )
        return site.runtime.table_info(info.id)

    return hook
