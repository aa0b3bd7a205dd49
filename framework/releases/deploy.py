"""Deploy, roll back, game status and blocking: the control panel of a game."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from framework.core.errors import UserError
from framework.core.kinds import ReleaseStage, TableMode, TablePhase
from framework.game.table_database import SCHEMA_STAMP_KEY
from framework.platform.models import DeploymentRecord, GameRecord, GameTableRecord, ReleaseRecord
from framework.releases import schema as schema_mod
from framework.releases.builds import load_release, release_manifest
from framework.releases.check import CheckReport, check
from framework.releases.context import ReleaseContext
from framework.releases.inuse import tables_in_use
from framework.releases.notice import mark_passed, table_of, tell_players
from framework.releases.upgrade import release_notes, upgrade_all, upgrade_table

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
    needs ``block``: the game is blocked, every table upgraded, then unblocked (a game
    blocked by hand before stays blocked). Tables blocked by a failed upgrade are tried
    again when the release passed their rehearsal; the answer says which remain blocked
    and why. A major release turns a gold game into beta.

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
    blocked_by_hand = is_game_blocked(site, game)
    if block and not blocked_by_hand:
        set_blocked(site, game, True)
    try:
        with Session(site.platform) as s, s.begin():
            rec = _game_record(s, game)
            previous = rec.production_version
            rec.production_version = version
            status_before = rec.status
            if rec.status == ReleaseStage.GOLD and _is_major(s, game, previous, version):
                rec.status = ReleaseStage.BETA
            s.add(DeploymentRecord(game=game, version=version, previous_version=previous,
                                   action="deploy", forced=force and bool(report.errors),
                                   findings=[asdict(f) for f in report.findings]))
            status = rec.status
        summary = upgrade_all(site, game, progress=progress) if block else None
        repair = repair_blocked(site, game, report)
    finally:
        if block and not blocked_by_hand:
            set_blocked(site, game, False)
    return {"game": game, "version": version, "previous": previous, "upgrade": summary,
            "check": report.to_json(), "blocked_tables": repair, "game_blocked": blocked_by_hand,
            "status": status, "status_before": status_before}


def is_game_blocked(site: ReleaseContext, game: str) -> bool:
    with Session(site.platform) as s:
        rec = s.get(GameRecord, game)
        return bool(rec and rec.blocked)


def _is_major(s: Session, game: str, previous: str | None, version: str) -> bool:
    """Whether ``version``, or a release built after ``previous`` and before it (never
    deployed), is major."""
    query = select(ReleaseRecord.major).where(ReleaseRecord.game == game, ReleaseRecord.version <= version)
    if previous is not None and previous < version:
        query = query.where(ReleaseRecord.version > previous)
    else:
        query = query.where(ReleaseRecord.version == version)
    return any(s.scalars(query))


def repair_blocked(site: ReleaseContext, game: str, report: CheckReport) -> dict[str, Any]:
    """Try again the upgrade of every table blocked by a failed one, unless the release's
    rehearsal failed for it; what remains blocked, and why."""
    failed_rehearsal = {t: f.message for f in report.errors if f.kind == "rehearsal" for t in f.tables}
    repaired: list[int] = []
    remaining: list[dict[str, Any]] = []
    for table_id in blocked_tables(site, game):
        if table_id in failed_rehearsal:
            remaining.append({"table": table_id, "reason": failed_rehearsal[table_id]})
            continue
        outcome = upgrade_table(site, table_id)
        if outcome.status == "upgraded" or (outcome.status == "current" and _unblock_current(site, table_id)):
            repaired.append(table_id)
        else:
            remaining.append({"table": table_id, "reason": outcome.error or "its upgrade failed"})
    return {"repaired": repaired, "remaining": remaining}


def blocked_tables(site: ReleaseContext, game: str) -> list[int]:
    with Session(site.platform) as s:
        return list(s.scalars(select(GameTableRecord.id).where(
            GameTableRecord.game == game, GameTableRecord.mode == TableMode.PRODUCTION,
            GameTableRecord.status != TablePhase.FINISHED, GameTableRecord.blocked.is_(True),
        ).order_by(GameTableRecord.id)))


def _unblock_current(site: ReleaseContext, table_id: int) -> bool:
    """A blocked table already on the production release (its upgrade finished after all,
    or the release it failed on was rolled back): nothing to repair but the flag."""
    with Session(site.platform) as s, s.begin():
        row = s.get(GameTableRecord, table_id)
        if row is None:
            return False
        row.blocked = False
    return True


def rollback(site: ReleaseContext, game: str) -> dict[str, Any]:
    """Go back to the release that was production before the current one.

    Raises:
        UserError: nothing to go back to, or tables on the current release use what the
        previous one lacks: a schema it cannot read, a state or a statistic (they are named).
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
    cur_manifest = release_manifest(site, game, current)
    old_manifest = release_manifest(site, game, previous)
    cur_schema = schema_mod.from_json(cur_manifest["schema"])
    old_schema = schema_mod.from_json(old_manifest["schema"])
    uses = [u for u in tables_in_use(site, game) if u.release == current]
    upgraded = [u.table_id for u in uses]
    differences = schema_mod.diff(old_schema, cur_schema)
    if upgraded and differences:
        raise UserError(
            "Cannot go back to ${previous}: tables ${tables} were upgraded to ${current}, whose "
            "schema ${previous} cannot read (${diff}). Fix forward with a new release instead",
            "rollback_refused", previous=previous, current=current,
            tables=", ".join(map(str, upgraded)), diff="; ".join(differences[:5]),
        )
    old_states = {int(st["id"]) for st in old_manifest["states"]}
    in_new_states = [f"{u.table_id} (state {u.state})" for u in uses
                     if u.state is not None and u.state not in old_states]
    if in_new_states:
        raise UserError(
            "Cannot go back to ${previous}: tables ${tables} sit in states ${previous} does not have. "
            "Fix forward with a new release, or wait until they have left those states",
            "rollback_refused_states", previous=previous, tables=", ".join(in_new_states),
        )
    old_stats = {(st["scope"], int(st["id"])) for st in old_manifest["stats"]}
    keys = {(st["scope"], int(st["id"])): st["key"] for st in cur_manifest["stats"]}
    with_new_stats = [f"{u.table_id} ({', '.join(sorted(keys.get(k, str(k[1])) for k in new))})"
                      for u in uses if (new := u.stats - old_stats)]
    if with_new_stats:
        raise UserError(
            "Cannot go back to ${previous}: tables ${tables} count statistics ${previous} does not "
            "have, which would be lost. Fix forward with a new release instead",
            "rollback_refused_stats", previous=previous, tables="; ".join(with_new_stats),
        )
    with Session(site.platform) as s, s.begin():
        _game_record(s, game).production_version = previous
        for table_id in upgraded:
            row = s.get(GameTableRecord, table_id)
            if row is not None:
                row.release_version = previous
        s.add(DeploymentRecord(game=game, version=previous, previous_version=current,
                               action="rollback", forced=False, findings=[]))
    old_def = load_release(site, game, previous)
    for table_id in upgraded:
        with site.store.connect(table_id) as db:
            table = table_of(old_def, db)
            # The data has been through current's upgrade: a later upgrade starts from there.
            mark_passed(table, current)
            table.set_meta("release", previous)
            table.touch()  # what workers keep of the table is stale now
            table.set_meta(SCHEMA_STAMP_KEY, "")  # its schema is checked again at the next upgrade
            tell_players(table, "rollback", current, previous, release_notes(site, game, previous))
        site.runtime.forget_table(table_id)
        site.runtime.changed(table_id)
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
