"""Building releases: version stamps, an immutable copy of the game package, the manifest."""

from __future__ import annotations

import ast
import hashlib
import itertools
import json
import logging
import shutil
import subprocess
import tempfile
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from framework.core.clock import utcnow
from framework.core.errors import NotFoundError, UserError
from framework.core.kinds import ReleaseStage
from framework.game.registry import GameDefinition, load_game_from_directory
from framework.i18n.extract import extract_messages
from framework.platform.models import GameRecord, ReleaseRecord
from framework.releases import schema as schema_mod
from framework.releases.context import ReleaseContext
from framework.releases.counters_use import declared_counters, global_keys
from framework.storage.base import TableStore
from framework.storage.sql.translate import translate_dbmodel
from framework.storage.sqlite import SQLiteStore

log = logging.getLogger(__name__)
VERSION_FORMAT = "%y%m%d-%H%M"
_BUILD_COUNTER = itertools.count(1)
IGNORED = shutil.ignore_patterns("__pycache__", "*.pyc", ".pytest_cache", "*.mo")


def version_stamp(now: datetime, taken: set[str]) -> str:
    """``YYMMDD-HHMM`` of ``now``, moved on by minutes until it is not taken.

    >>> version_stamp(datetime(2026, 11, 29, 14, 5), {"261129-1405"})
    '261129-1406'
    """
    moment = now.replace(second=0, microsecond=0)
    while moment.strftime(VERSION_FORMAT) in taken:
        moment += timedelta(minutes=1)
    return moment.strftime(VERSION_FORMAT)


def version_int(version: str | None) -> int:
    """What ``upgrade_table_db`` receives: ``YYMMDDHHMM`` as an integer (0 for none).

    >>> version_int("261129-1405")
    2611291405
    """
    return int(version.replace("-", "")) if version else 0


def git_state(directory: Path) -> tuple[str | None, list[str]]:
    """(commit of HEAD, files under ``directory`` with uncommitted changes).

    Raises:
        UserError: ``directory`` is not inside a git work tree.
    """
    def git(*args: str) -> str:
        proc = subprocess.run(["git", *args], cwd=directory, capture_output=True, text=True)
        if proc.returncode != 0:
            raise UserError(
                "${path} is not in a git repository: a release is built from committed code",
                "not_git", path=str(directory),
            )
        return proc.stdout

    commit = git("rev-parse", "HEAD").strip() or None
    dirty = [line[3:] for line in git("status", "--porcelain", "--", ".").splitlines() if line.strip()]
    return commit, dirty


def collect_msgids(directory: Path) -> list[str]:
    """The msgids of the game's catalog (Python, templates, JS: what ``arena i18n extract``
    finds), plural msgids as ``singular|plural``."""

    try:
        catalog = extract_messages(directory).catalog
    except Exception:  # a folder the extractor cannot read: fall back to the Python markers
        log.warning("arena i18n extraction failed in %s; using Python markers only", directory,
                    exc_info=True)
        return _python_msgids(directory)
    ids = [m.id if isinstance(m.id, str) else "|".join(m.id) for m in catalog if m.id]
    return sorted(set(ids))


def _python_msgids(directory: Path) -> list[str]:
    found: set[str] = set()
    for path in sorted(directory.rglob("*.py")):
        if "tests" in path.relative_to(directory).parts:
            continue
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"))
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id in ("clienttranslate", "totranslate", "_") and node.args
                    and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
                found.add(node.args[0].value)
    return sorted(found)


def self_imports(directory: Path, game: str) -> list[str]:
    """Modules of the package that import ``games.<game>`` absolutely (a release copy would
    then run the working tree's code)."""
    bad = []
    for path in sorted(directory.rglob("*.py")):
        if "tests" in path.relative_to(directory).parts:
            continue
        text = path.read_text(encoding="utf-8")
        if f"from games.{game}" in text or f"import games.{game}" in text:
            bad.append(path.relative_to(directory).as_posix())
    return bad


def fresh_schema(gdef: GameDefinition, store: TableStore | None = None) -> schema_mod.Schema:
    """The schema of a new table of ``gdef`` (default tables + dbmodel.sql), on SQLite, or on
    ``store``'s server (in a scratch namespace of it, dropped afterwards)."""
    from framework.engine.runtime import default_tables_sql

    if store is not None and store.dialect != "sqlite":
        import uuid

        scratch = store.scratch(uuid.uuid4().hex[:8])
        try:
            with scratch.create(1) as db:
                for sql in translate_dbmodel(default_tables_sql(), db.dialect, reserved=frozenset()):
                    db.execute(sql)
                if gdef.dbmodel.strip():
                    for sql in translate_dbmodel(gdef.dbmodel, db.dialect, f"games/{gdef.name}/dbmodel.sql"):
                        db.execute(sql)
                return schema_mod.reflect(db)
        finally:
            scratch.drop_all()
            scratch.close()
    with tempfile.TemporaryDirectory() as tmp:
        store = SQLiteStore(Path(tmp))
        try:
            with store.create(1) as db:
                for sql in translate_dbmodel(default_tables_sql(), "sqlite", reserved=frozenset()):
                    db.execute(sql)
                if gdef.dbmodel.strip():
                    for sql in translate_dbmodel(gdef.dbmodel, "sqlite", f"games/{gdef.name}/dbmodel.sql"):
                        db.execute(sql)
                return schema_mod.reflect(db)
        finally:
            store.close()


def manifest_of(gdef: GameDefinition) -> dict[str, Any]:
    msgids = collect_msgids(gdef.directory)
    return {
        "game": gdef.name,
        "states": [{"id": s.id, "name": s.name, "type": s.state_type.value} for s in gdef.states],
        "stats": [{"id": s.id, "key": s.key, "type": s.type, "scope": s.scope} for s in gdef.stats.stats],
        "options": [{"id": o.id, "key": o.key, "values": sorted(o.values), "default": o.default}
                    for o in gdef.options.options.values()],
        "globals": dict(sorted(gdef.table_class.GLOBALS.items())),
        "counters": [{k: v for k, v in c.items() if k != "where"} for c in declared_counters(gdef.directory)],
        "json_globals": global_keys(gdef.directory),
        "schema": schema_mod.to_json(fresh_schema(gdef)),
        "msgids": msgids,
        "msgids_hash": hashlib.sha256("\n".join(msgids).encode()).hexdigest(),
    }


def releases_dir(site: ReleaseContext, game: str) -> Path:
    return site.instance_path / "releases" / game


def release_dir(site: ReleaseContext, game: str, version: str) -> Path:
    return releases_dir(site, game) / version / "package"


def module_name(game: str, version: str, folder: Path) -> str:
    """A module name unique to this stored copy (two sites may both have a release 1)."""
    tag = hashlib.sha1(str(folder.resolve()).encode()).hexdigest()[:10]
    return f"arena_release_{game}_{version.replace('-', '_')}_{tag}"


def load_release(site: ReleaseContext, game: str, version: str) -> GameDefinition:
    """The game as built in ``version``, from its stored copy (never the working tree).

    Raises:
        NotFoundError: no such release.
    """
    folder = release_dir(site, game, version)
    if not (folder / "__init__.py").exists():
        raise NotFoundError("${game} has no release ${version}", "unknown_release",
                            game=game, version=version)
    return load_game_from_directory(folder, module_name(game, version, folder))


def build(site: ReleaseContext, game: str, notes: str = "", major: bool = False,
          now: datetime | None = None, check_git: bool = True) -> dict[str, Any]:
    """Build a release of ``game`` from its committed working tree.

    Raises:
        UserError: uncommitted changes under the game's folder (named), not a git tree.
        ConfigError: the game does not load.
    """
    directory = site.registry.get(game).directory
    # What is on disk now, not what this process loaded earlier.
    gdef = load_game_from_directory(directory, f"arena_build_{game}_{next(_BUILD_COUNTER)}")
    commit: str | None = None
    if check_git:
        commit, dirty = git_state(gdef.directory)
        if dirty:
            raise UserError(
                "games/${game} has uncommitted changes: ${files}. Commit them, then build",
                "uncommitted", game=game, files=", ".join(dirty),
            )
    manifest = manifest_of(gdef)
    if site.store.dialect != "sqlite":
        # The schema a new table has on this site's server: what an upgrade to the release
        # checks its tables against (upgrade._expected_schema), made once here, not by the
        # first upgrade of every process.
        manifest["schemas"] = {site.store.dialect: schema_mod.to_json(fresh_schema(gdef, site.store))}
    with Session(site.platform) as s, s.begin():
        taken = set(s.scalars(select(ReleaseRecord.version).where(ReleaseRecord.game == game)))
        version = version_stamp(now or utcnow(), taken)
        target = release_dir(site, game, version)
        if target.exists():
            shutil.rmtree(target)
        shutil.copytree(gdef.directory, target, ignore=IGNORED)
        manifest = {**manifest, "version": version, "git_commit": commit, "notes": notes, "major": major}
        (target.parent / "manifest.json").write_text(json.dumps(manifest, indent=1, sort_keys=True))
        for path in sorted(target.rglob("*"), reverse=True):
            path.chmod(0o555 if path.is_dir() else 0o444)
        s.add(ReleaseRecord(game=game, version=version, git_commit=commit, notes=notes,
                            major=major, manifest=manifest))
        if s.get(GameRecord, game) is None:
            s.add(GameRecord(name=game, status=ReleaseStage.ALPHA, blocked=False))
    return manifest  # a major release turns a gold game into beta when it is deployed


def list_releases(site: ReleaseContext, game: str) -> list[dict[str, Any]]:
    with Session(site.platform) as s:
        rec = s.get(GameRecord, game)
        production = rec.production_version if rec else None
        rows = s.scalars(select(ReleaseRecord).where(ReleaseRecord.game == game)
                         .order_by(ReleaseRecord.version)).all()
        return [{"version": r.version, "git_commit": r.git_commit, "notes": r.notes, "major": r.major,
                 "created_at": r.created_at.isoformat(timespec="seconds"),
                 "production": r.version == production} for r in rows]


def release_manifest(site: ReleaseContext, game: str, version: str) -> dict[str, Any]:
    with Session(site.platform) as s:
        rec = s.scalar(select(ReleaseRecord).where(ReleaseRecord.game == game,
                                                   ReleaseRecord.version == version))
        if rec is None:
            raise NotFoundError("${game} has no release ${version}", "unknown_release",
                                game=game, version=version)
        return dict(rec.manifest)
