"""Deploy, roll back, game status and blocking: the control panel of a game."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from framework.core.errors import UserError
from framework.core.kinds import ReleaseStage, TableMode, TablePhase
from framework.platform.models import DeploymentRecord, GameRecord, GameTableRecord
from framework.releases import schema as schema_mod
from framework.releases.builds import release_manifest
from framework.releases.check import CheckReport, check
from framework.releases.context import ReleaseContext
from framework.releases.upgrade import upgrade_all
from framework.storage.sql.translate import translate_query

STATUSES = tuple(ReleaseStage)


def _game_record(s: Session, game: str) -> GameRecord:
    rec = s.get(GameRecord, game)
    if rec is None:
        rec = GameRecord(name=game, status=ReleaseStage.ALPHA, blocked=False)
        s.add(rec)
    return rec


def set_blocked(site: ReleaseContext, game: str, blocked: bool) -> None:
    """While blocked, actions on the game's production tables are refused (HTTP 503)."""
    site.registry.get(game)
    with Session(site.platform) as s, s.begin():
        _game_record(s, game).blocked = blocked
    site.runtime.forget_blocked(game)


def set_status(site: ReleaseContext, game: str, status: str | None = None) -> str:
    site.registry.get(game)
    with Session(site.platform) as s, s.begin():
        rec = _game_record(s, game)
        if status is not None:
            if status not in STATUSES:
                raise UserError("A game's status is alpha, beta or gold, not ${status}", "bad_status",
                                status=status)
            rec.status = status
        return rec.status


def deploy(site: ReleaseContext, game: str, version: str, block: bool = False, force: bool = False,
           progress: Callable[[int], None] | None = None) -> dict[str, Any]:
    """Make ``version`` production. Errors stop it unless ``force``; a breaking change
    needs ``block``: the game is blocked, every table upgraded, then unblocked.

    Raises:
        UserError: the check found errors, or breaking changes without ``block``.
    """
    report: CheckReport = check(site, game, version)
    if report.errors and not force:
        raise UserError("Release ${version} would break games in progress: ${errors}. Fix it, or "
                        "deploy with --force", "check_failed", version=version,
                        errors="; ".join(f.message for f in report.errors))
    if report.breaking and not block:
        raise UserError("Release ${version} changes what tables in progress store (${what}): deploy "
                        "it with --block", "needs_block", version=version,
                        what="; ".join(f.message for f in report.breaking))
    if block:
        set_blocked(site, game, True)
    try:
        with Session(site.platform) as s, s.begin():
            rec = _game_record(s, game)
            previous = rec.production_version
            rec.production_version = version
            s.add(DeploymentRecord(game=game, version=version, previous_version=previous,
                                   action="deploy", forced=force and bool(report.errors),
                                   findings=[asdict(f) for f in report.findings]))
        summary = upgrade_all(site, game, progress=progress) if block else None
    finally:
        if block:
            set_blocked(site, game, False)
    return {"game": game, "version": version, "previous": previous, "upgrade": summary,
            "check": report.to_json()}


def rollback(site: ReleaseContext, game: str) -> dict[str, Any]:
    """Go back to the release that was production before the current one.

    Raises:
        UserError: nothing to go back to, or tables were upgraded to a schema the previous
        release cannot read (they are named).
    """
    with Session(site.platform) as s:
        rec = s.get(GameRecord, game)
        current = rec.production_version if rec else None
        last = s.scalar(select(DeploymentRecord).where(
            DeploymentRecord.game == game, DeploymentRecord.version == current,
        ).order_by(DeploymentRecord.id.desc()))
        previous = last.previous_version if last else None
    if current is None or previous is None:
        raise UserError("${game} has no earlier production release to go back to", "no_previous",
                        game=game)
    cur_schema = schema_mod.from_json(release_manifest(site, game, current)["schema"])
    old_schema = schema_mod.from_json(release_manifest(site, game, previous)["schema"])
    with Session(site.platform) as s:
        upgraded = list(s.scalars(select(GameTableRecord.id).where(
            GameTableRecord.game == game, GameTableRecord.mode == TableMode.PRODUCTION,
            GameTableRecord.status != TablePhase.FINISHED, GameTableRecord.release_version == current)))
    differences = schema_mod.diff(old_schema, cur_schema)
    if upgraded and differences:
        raise UserError(
            "Cannot go back to ${previous}: tables ${tables} were upgraded to ${current}, whose "
            "schema ${previous} cannot read (${diff}). Fix forward with a new release instead",
            "rollback_refused", previous=previous, current=current,
            tables=", ".join(map(str, upgraded)), diff="; ".join(differences[:5]),
        )
    with Session(site.platform) as s, s.begin():
        _game_record(s, game).production_version = previous
        for table_id in upgraded:
            row = s.get(GameTableRecord, table_id)
            if row is not None:
                row.release_version = previous
        s.add(DeploymentRecord(game=game, version=previous, previous_version=current,
                               action="rollback", forced=False, findings=[]))
    for table_id in upgraded:
        with site.store.connect(table_id) as db:
            db.execute(translate_query("UPDATE arena_meta SET meta_value = %s WHERE meta_key = 'release'",
                                       db.dialect), (previous,))
        site.runtime.forget_table(table_id)
    return {"game": game, "version": previous, "previous": current, "tables_moved_back": upgraded}


def game_overview(site: ReleaseContext, game: str) -> dict[str, Any]:
    """What the studio page of a game shows."""
    from framework.releases.builds import list_releases

    site.registry.get(game)
    with Session(site.platform) as s:
        rec = s.get(GameRecord, game)
        rows = s.execute(select(GameTableRecord.release_version, GameTableRecord.blocked).where(
            GameTableRecord.game == game, GameTableRecord.mode == TableMode.PRODUCTION,
            GameTableRecord.status != TablePhase.FINISHED)).all()
        deployments = s.scalars(select(DeploymentRecord).where(DeploymentRecord.game == game)
                                .order_by(DeploymentRecord.id.desc()).limit(20)).all()
        history = [{"version": d.version, "previous": d.previous_version, "action": d.action,
                    "forced": d.forced, "findings": d.findings,
                    "at": d.created_at.isoformat(timespec="seconds")} for d in deployments]
    per_version: dict[str, int] = {}
    blocked_tables = 0
    for version, blocked in rows:
        per_version[version or "-"] = per_version.get(version or "-", 0) + 1
        blocked_tables += int(bool(blocked))
    return {"game": game, "status": rec.status if rec else ReleaseStage.ALPHA,
            "blocked": bool(rec and rec.blocked),
            "production": rec.production_version if rec else None,
            "releases": list_releases(site, game), "tables_per_version": per_version,
            "blocked_tables": blocked_tables, "deployments": history}
