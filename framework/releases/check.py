"""``arena release check``: what a candidate release would break in games in progress."""

from __future__ import annotations

import difflib
import functools
import json
import sqlite3
import tempfile
import uuid
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from framework.core.errors import ArenaError, UserError
from framework.core.kinds import TableMode, TablePhase
from framework.engine.runtime import Runtime
from framework.game.registry import GameRegistry
from framework.i18n import SOURCE_LANGUAGE, SUPPORTED_LANGUAGES, translator
from framework.platform.db import create_platform_engine, upgrade_platform
from framework.platform.models import GameTableRecord, ReleaseRecord
from framework.releases import schema as schema_mod
from framework.releases.builds import fresh_schema, load_release, release_dir, release_manifest, self_imports
from framework.releases.context import ReleaseContext, ScratchContext
from framework.releases.counters_use import upgrade_inits
from framework.releases.globals_use import global_use
from framework.releases.inuse import distinct_uses, tables_in_use
from framework.releases.migrate import sync_copies
from framework.releases.upgrade import apply_upgrade, production_version
from framework.storage.base import TableConnection
from framework.storage.sql.names import quote_identifier

ERROR, BREAKING, WARNING, INFO = "error", "breaking", "warning", "info"


@dataclass
class Finding:
    severity: str  # error: stops deploy unless --force; breaking: needs --block
    kind: str
    message: str
    advice: str = ""
    tables: list[int] = field(default_factory=list)  # the tables in play it concerns


@dataclass
class CheckReport:
    game: str
    candidate: str
    production: str | None
    findings: list[Finding]

    @property
    def errors(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == ERROR]

    @property
    def breaking(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == BREAKING]

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "candidate": self.candidate, "production": self.production,
                "ok": not self.errors, "needs_block": bool(self.breaking),
                "findings": [asdict(f) for f in self.findings]}


def latest_version(site: ReleaseContext, game: str) -> str:
    with Session(site.platform) as s:
        version = s.scalar(select(ReleaseRecord.version).where(ReleaseRecord.game == game)
                           .order_by(ReleaseRecord.version.desc()))
    if version is None:
        raise UserError("${game} has no release yet: run arena release build ${game}",
                        "no_release", game=game)
    return version


def live_tables(site: ReleaseContext, game: str) -> list[tuple[int, str | None]]:
    with Session(site.platform) as s:
        rows = s.execute(select(GameTableRecord.id, GameTableRecord.release_version).where(
            GameTableRecord.game == game, GameTableRecord.mode == TableMode.PRODUCTION,
            GameTableRecord.status != TablePhase.FINISHED).order_by(GameTableRecord.id)).all()
    return [(int(r[0]), r[1]) for r in rows]


def check(site: ReleaseContext, game: str, version: str | None = None) -> CheckReport:
    """Compare release ``version`` (default: the latest built) with production; the report
    is also kept as the game's last check (the studio page shows it)."""
    report = _check(site, game, version)
    path = site.instance_path / "releases" / game / "last_check.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(report.to_json(), indent=1))
    return report


def last_check(site: ReleaseContext, game: str) -> dict[str, Any] | None:
    path = site.instance_path / "releases" / game / "last_check.json"
    return json.loads(path.read_text()) if path.exists() else None


def _check(site: ReleaseContext, game: str, version: str | None) -> CheckReport:
    candidate = version or latest_version(site, game)
    cand = release_manifest(site, game, candidate)
    production = production_version(site, game)
    findings: list[Finding] = []
    bad_imports = self_imports(Path(site.instance_path / "releases" / game / candidate / "package"), game)
    if bad_imports:
        findings.append(Finding(
            ERROR, "imports", f"{', '.join(bad_imports)} import games.{game} absolutely: a release "
            "would run the working tree's code instead of its own",
            f"use relative imports (from .rules import ...) inside games/{game}"))
    if production is None:
        findings.append(Finding(INFO, "first", f"{game} has no production release: nothing to compare"))
        return CheckReport(game, candidate, None, findings)
    if production == candidate:
        findings.append(Finding(INFO, "same", f"{candidate} is already in production"))
        return CheckReport(game, candidate, production, findings)
    prod = release_manifest(site, game, production)
    findings += _states(site, game, prod, cand)
    findings += _stats(prod, cand)
    findings += _options_and_globals(prod, cand)
    findings += _msgids(site, game, production, candidate, prod, cand)
    findings += _rehearse(site, game, production, candidate)
    findings += _new_globals(site, game, candidate, prod, cand)
    findings += _counters(site, game, candidate, prod, cand)
    findings += _json_globals(site, game, candidate, prod, cand)
    return CheckReport(game, candidate, production, findings)


def _states(site: ReleaseContext, game: str, prod: dict[str, Any], cand: dict[str, Any]) -> list[Finding]:
    out = []
    new = {s["id"]: s for s in cand["states"]}
    for old in prod["states"]:
        now = new.get(old["id"])
        if now is None:
            moved = [s["id"] for s in cand["states"] if s["name"] == old["name"]]
            where = f" (renumbered to {moved[0]})" if moved else ""
            out.append(Finding(ERROR, "state", f"state {old['id']} ({old['name']}) was removed{where}",
                               "never change the id of a released state; add new states instead"))
        elif now["type"] != old["type"]:
            out.append(Finding(ERROR, "state", f"state {old['id']} ({old['name']}) changed type "
                               f"from {old['type']} to {now['type']}", "keep its type; add a new state"))
        elif now["name"] != old["name"]:
            out.append(Finding(WARNING, "state", f"state {old['id']} was renamed from {old['name']} "
                               f"to {now['name']}", "the client code must handle the new name"))
    stuck = []
    for table_id, _ in live_tables(site, game):
        try:
            with site.store.connect(table_id, write=False) as db:
                rows = db.execute(f"SELECT global_value FROM {quote_identifier('global', db.dialect)} "
                                  "WHERE global_id = 1").rows
        except (FileNotFoundError, sqlite3.Error):
            continue
        if rows and int(rows[0]["global_value"]) not in new:
            stuck.append(f"{table_id} (state {rows[0]['global_value']})")
    if stuck:
        out.append(Finding(ERROR, "state", f"tables in progress sit in states the candidate lacks: "
                           f"{', '.join(stuck)}", "keep those states until no table uses them"))
    return out


def _stats(prod: dict[str, Any], cand: dict[str, Any]) -> list[Finding]:
    out = []
    new = {(s["scope"], s["id"]): s for s in cand["stats"]}
    old_ids = {(s["scope"], s["id"]) for s in prod["stats"]}
    for old in prod["stats"]:
        now = new.get((old["scope"], old["id"]))
        if now is None:
            moved = [s["id"] for s in cand["stats"] if s["key"] == old["key"] and s["scope"] == old["scope"]]
            what = f"renumbered to {moved[0]}" if moved else "removed"
            out.append(Finding(ERROR, "statistic", f"{old['scope']} statistic {old['id']} ({old['key']}) "
                               f"was {what}: players' history of it would be lost",
                               "keep the id; a statistic's id is forever"))
        elif now["type"] != old["type"]:
            out.append(Finding(ERROR, "statistic", f"{old['scope']} statistic {old['id']} "
                               f"({old['key']}) changed type from {old['type']} to {now['type']}",
                               "add a new statistic with a new id instead"))
    for key, stat in new.items():
        if key not in old_ids:
            out.append(Finding(INFO, "statistic", f"new {stat['scope']} statistic {stat['id']} "
                               f"({stat['key']}): initialised in tables in progress by the upgrade"))
    return out


def _options_and_globals(prod: dict[str, Any], cand: dict[str, Any]) -> list[Finding]:
    out = []
    old_opts = {o["id"]: o for o in prod["options"]}
    new_opts = {o["id"]: o for o in cand["options"]}
    for oid in sorted(set(new_opts) - set(old_opts)):
        out.append(Finding(INFO, "option", f"new option {oid} ({new_opts[oid]['key']}): tables in "
                           f"progress get its default {new_opts[oid]['default']}"))
    for oid in sorted(set(old_opts) - set(new_opts)):
        out.append(Finding(WARNING, "option", f"option {oid} ({old_opts[oid]['key']}) was removed",
                           "tables in progress keep its value; make sure nothing reads it"))
    for oid in sorted(set(old_opts) & set(new_opts)):
        gone = sorted(set(old_opts[oid]["values"]) - set(new_opts[oid]["values"]))
        if gone:
            out.append(Finding(ERROR, "option", f"option {oid} lost values {gone}: tables created "
                               "with them could not go on", "keep the values"))
    old_g, new_g = prod["globals"], cand["globals"]
    for label in sorted(set(old_g) - set(new_g)):
        out.append(Finding(INFO, "global", f"global {label} is no longer declared"))
    for label in sorted(set(old_g) & set(new_g)):
        if old_g[label] != new_g[label]:
            out.append(Finding(ERROR, "global", f"global {label} moved from id {old_g[label]} to "
                               f"{new_g[label]}: tables in progress would read the wrong value",
                               "keep its id"))
    return out


def _translated_in(package: Path, msgid: str, framework_only: bool = False) -> list[str]:
    """The languages in which the catalogs of a release (the game's, then the framework's)
    translate ``msgid``."""
    return [lang for lang in SUPPORTED_LANGUAGES if lang != SOURCE_LANGUAGE
            and translator(lang, None if framework_only else package).is_translated(msgid)]


def _msgids(site: ReleaseContext, game: str, production: str, candidate: str,
            prod: dict[str, Any], cand: dict[str, Any]) -> list[Finding]:
    """Strings of the production release gone from the candidate: what their translations
    become (games in progress show the old ones in their logs), and what they were changed
    into, when the candidate has a string like it, already translated or not."""
    out = []
    kept = set(cand["msgids"])
    prod_package = release_dir(site, game, production)
    cand_package = release_dir(site, game, candidate)
    added = [m for m in cand["msgids"] if m not in set(prod["msgids"])]
    existing = [m for m in cand["msgids"] if m not in added]
    for old in prod["msgids"]:
        if old in kept:
            continue
        had = _translated_in(prod_package, old)
        still = [lang for lang in had if lang in _translated_in(cand_package, old)]
        lost = [lang for lang in had if lang not in still]
        if lost:
            severity, what = WARNING, (f"its {', '.join(lost)} translations are lost: the log lines games in "
                                       "progress wrote with it turn English")
        elif had:
            severity, what = INFO, (f"its {', '.join(still)} translations stay in the catalogs for the "
                                    "log lines of games in progress")
        else:
            severity, what = INFO, "it had no translations"
        near = (difflib.get_close_matches(old, added, n=1, cutoff=0.75)
                or difflib.get_close_matches(old, existing, n=1, cutoff=0.6))
        if near:
            new = near[0]
            ready = _translated_in(cand_package, new)
            framework = _translated_in(cand_package, new, framework_only=True)
            in_framework = bool(framework) and set(framework) >= set(ready)
            where = "the framework's catalog" if in_framework else "the game's catalog"
            if ready:
                advice = (f"it looks changed into {new!r}, an existing string already translated in {where} "
                          f"({', '.join(ready)}): nothing to translate again")
            else:
                advice = (f"it looks changed into {new!r}, which has no translation yet: translate it, "
                          "or keep the old string")
        else:
            advice = ""
        if lost:
            advice = (advice + "; " if advice else "") + (
                "run arena i18n extract and arena i18n update before building (they keep the old string's "
                "translations), or keep the old string")
        out.append(Finding(severity, "msgid", f"the string {old!r} is gone: {what}", advice))
    return out


def scratch_site(site: ReleaseContext, folder: Path, registry: GameRegistry) -> ScratchContext:
    """A throw-away site on ``site``'s backend: its platform in a SQLite file under
    ``folder``, its tables in a scratch folder, schema prefix or database prefix."""
    folder.mkdir(parents=True, exist_ok=True)
    engine = create_platform_engine(f"sqlite:///{folder / 'platform.sqlite'}")
    upgrade_platform(engine)
    store = site.store.scratch(uuid.uuid4().hex[:8])
    return ScratchContext(folder, engine, store, registry, Runtime(engine, store, registry))


def _rehearse(site: ReleaseContext, game: str, production: str, candidate: str) -> list[Finding]:
    """Upgrade a fresh table at production (and copies of real tables) with the candidate;
    each must end with the schema of a fresh candidate table. Live tables are never touched."""
    out: list[Finding] = []
    prod_def = load_release(site, game, production)
    cand_def = load_release(site, game, candidate)
    expected = fresh_schema(cand_def)
    prod_schema = schema_mod.from_json(release_manifest(site, game, production)["schema"])
    changes = schema_mod.diff(expected, prod_schema)
    if changes:
        out.append(Finding(BREAKING, "schema", "the schema changes: " + "; ".join(changes[:8]),
                           "deploy with --block so every table upgrades while nobody plays"))
    # The rehearsal runs on the site's own backend: a schema reflected on SQLite is not one
    # reflected on PostgreSQL or MariaDB.
    backend_expected = expected if site.store.dialect == "sqlite" else fresh_schema(cand_def, site.store)
    with tempfile.TemporaryDirectory() as tmp:
        registry = GameRegistry(packages={})
        registry.add_definition(prod_def)
        scratch = scratch_site(site, Path(tmp) / "rehearsal", registry)
        try:
            Opener = Callable[[], AbstractContextManager[TableConnection]]
            subjects: list[tuple[str, str, Opener, list[int]]] = []
            try:
                fresh = scratch.runtime.create_table(game, prod_def.info.min_players, {},
                                                     seed="rehearsal", definition=prod_def)
                subjects.append(("a new table at " + production, production,
                                 functools.partial(scratch.store.connect, fresh), []))
            except ArenaError as exc:
                out.append(Finding(ERROR, "rehearsal", f"cannot create a table at {production}: {exc}"))
            # One table for each (release, state) in play, blocked ones and ones not yet
            # upgraded lazily included: they take the older branches of upgrade_table_db.
            for (version, state), ids in distinct_uses(tables_in_use(site, game)).items():
                if version is None or version == candidate:
                    continue
                others = f", for {len(ids)} tables" if len(ids) > 1 else ""
                # A copy of the table (or, on PostgreSQL, the table in a rolled-back transaction).
                subjects.append((f"a copy of table {ids[0]} (release {version}, state {state}{others})",
                                 version, functools.partial(site.store.rehearsal, ids[0]), ids))
            for label, version, open_subject, ids in subjects:
                try:
                    with open_subject() as db:
                        apply_upgrade(db, cand_def, version, candidate)
                        actual = schema_mod.reflect(db)
                        leftover = sync_copies(db)
                except Exception as exc:  # the rehearsal reports any failure of game code
                    out.append(Finding(ERROR, "rehearsal", f"upgrading {label} failed: {exc}",
                                       "fix upgrade_table_db and build again", ids))
                    continue
                problems = schema_mod.diff(backend_expected, actual)
                if problems:
                    out.append(Finding(ERROR, "rehearsal", f"after upgrade_table_db, {label} differs from "
                                       "a new table: " + "; ".join(problems[:10]),
                                       "add the missing steps to upgrade_table_db (self.migrate...)", ids))
                if leftover:
                    out.append(Finding(ERROR, "rehearsal", f"copies of {label} were out of step: {leftover}",
                                       tables=ids))
        finally:
            scratch.store.drop_all()
            scratch.close()
    if not any(f.kind == "rehearsal" for f in out) and changes:
        out.append(Finding(INFO, "rehearsal", "upgrade rehearsal passed: upgraded tables match new ones"))
    return out


def _new_globals(site: ReleaseContext, game: str, candidate: str, prod: dict[str, Any],
                 cand: dict[str, Any]) -> list[Finding]:
    """A new global that ``upgrade_table_db`` does not set holds its default in tables in
    progress, whatever the part already played should have made it: a warning naming the
    code that reads it."""
    out = []
    new = sorted(set(cand["globals"]) - set(prod["globals"]))
    table_class = load_release(site, game, candidate).table_class if new else None
    defaults = dict(getattr(table_class, "GLOBAL_DEFAULTS", {}))
    for label in new:
        what = f"new global {label} ({cand['globals'][label]})"
        use = global_use(release_dir(site, game, candidate), label)
        if use.set_by_upgrade:
            out.append(Finding(INFO, "global", f"{what}: set by upgrade_table_db in tables in progress"))
            continue
        read = ("read by " + ", ".join(use.readers[:6])) if use.readers else "no code reads it by name"
        out.append(Finding(WARNING, "global", f"{what}: tables in progress get {defaults.get(label, 0)} "
                           f"(GLOBAL_DEFAULTS) for the part already played; {read}",
                           f"set it in upgrade_table_db from what the table holds "
                           f"(self.set_game_state_value({label!r}, ...)), or check that the default "
                           "is right for games in progress"))
    return out


def _counters(site: ReleaseContext, game: str, candidate: str, prod: dict[str, Any],
              cand: dict[str, Any]) -> list[Finding]:
    """Counters (``PlayerCounter``/``TableCounter``) are rows of each table named by the
    counter: a rename or a removal strands them, a new one has none in tables in progress."""
    if "counters" not in prod:  # built before counters were recorded: nothing to compare
        return []
    out = []
    old = {c["name"]: c for c in prod["counters"]}
    new = {c["name"]: c for c in cand.get("counters", [])}
    live = [t for t, _ in live_tables(site, game)]
    added = [n for n in new if n not in old]
    package = release_dir(site, game, candidate)
    renamed: dict[str, str] = {}
    for name in sorted(set(old) - set(new)):
        was = old[name]
        into = [n for n in added if new[n]["kind"] == was["kind"]
                and ((was.get("attr") and new[n].get("attr") == was["attr"]) or len(added) == 1)]
        what = f"renamed to {into[0]}" if into else "removed"
        if into:
            renamed[into[0]] = name
        message = (f"{was['kind']} counter {name} was {what}: tables in progress keep its values "
                   f"under {name}")
        if live:
            out.append(Finding(BREAKING, "counter", message + (f", which the candidate never reads; "
                               f"{into[0]} has no value there" if into else ""),
                               "keep the name, or copy the values in upgrade_table_db and deploy "
                               "with --block", live))
        else:
            out.append(Finding(INFO, "counter", message.split(":")[0] + ": no table in progress has it"))
    for name in sorted(set(old) & set(new)):
        for bound in ("min", "max"):
            if old[name][bound] != new[name][bound]:
                out.append(Finding(WARNING, "counter", f"{new[name]['kind']} counter {name}: {bound} "
                                   f"changed from {old[name][bound]} to {new[name][bound]}",
                                   "values tables in progress already hold may be out of the new range: "
                                   "set or inc raises OutOfRangeCounterException on them", live))
    for name in sorted(added):
        counter = new[name]
        if name in renamed or upgrade_inits(package, counter):
            continue
        get = "get(player_id) and get_all()" if counter["kind"] == "player" else "get()"
        out.append(Finding(WARNING, "counter", f"new {counter['kind']} counter {name} (initial "
                           f"{counter['initial']}) has no upgrade_table_db step: tables in progress have "
                           f"no row for it, so its {get} raise 'used before init_db' there",
                           f"call {'self.' + counter['attr'] if counter.get('attr') else 'the counter'}"
                           ".init_db(...) in upgrade_table_db", live))
    return out


def _json_globals(site: ReleaseContext, game: str, candidate: str, prod: dict[str, Any],
                  cand: dict[str, Any]) -> list[Finding]:
    """Keys of ``self.globals`` named in the code: one the production release used and the
    candidate no longer names, and one newly read with no step in ``upgrade_table_db``."""
    if "json_globals" not in prod:
        return []
    out = []
    old, new = set(prod["json_globals"]), set(cand.get("json_globals", []))
    for key in sorted(old - new):
        out.append(Finding(WARNING, "global", f"JSON global {key} is no longer used: tables in progress "
                           "keep its value, which the candidate never reads",
                           "if it was renamed, copy it in upgrade_table_db (self.globals.set(new, "
                           "self.globals.get(old)))"))
    package = release_dir(site, game, candidate)
    for key in sorted(new - old):
        use = global_use(package, key)
        if use.set_by_upgrade or not use.readers:
            continue
        out.append(Finding(WARNING, "global", f"new JSON global {key}: tables in progress have no value "
                           f"for it, so get returns its default (None unless given) for the part already "
                           f"played; read by {', '.join(use.readers[:6])}",
                           f"set it in upgrade_table_db (self.globals.set({key!r}, ...)), or check that "
                           "the default is right for games in progress"))
    return out
