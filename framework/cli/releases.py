"""``arena release ...``, ``arena game ...`` and ``arena upgrade``."""

from __future__ import annotations

import json
import sys
from typing import Any

import click

from framework.cli.base import guarded, site_of
from framework.core.kinds import ReleaseStage


@click.group()
def release() -> None:
    """Build, check, deploy and roll back releases of a game."""


@release.command("build")
@click.argument("game")
@click.option("--notes", default="", help="Release notes shown to players.")
@click.option("--major", is_flag=True, help="A major release (a gold game goes back to beta).")
@click.pass_context
@guarded
def build_cmd(ctx: click.Context, game: str, notes: str, major: bool) -> None:
    """Build a release from the committed working tree and check it."""
    from framework.releases.builds import build
    from framework.releases.check import check

    site = site_of(ctx)
    manifest = build(site, game, notes=notes, major=major)
    click.echo(f"built {game} {manifest['version']} (commit {manifest['git_commit'] or '-'})")
    _print_report(check(site, game, manifest["version"]).to_json())


def _print_report(report: dict[str, object]) -> None:
    findings = report["findings"]
    assert isinstance(findings, list)
    for f in findings:
        line = f"  [{f['severity']}] {f['kind']}: {f['message']}"
        if f["advice"]:
            line += f"\n      -> {f['advice']}"
        click.echo(line)
    if not findings:
        click.echo("  no findings")


@release.command("list")
@click.argument("game")
@click.pass_context
@guarded
def list_cmd(ctx: click.Context, game: str) -> None:
    """Releases of GAME (* marks production)."""
    from framework.releases.builds import list_releases

    site = site_of(ctx)
    site.registry.get(game)
    rows = list_releases(site, game)
    if not rows:
        click.echo(f"{game} has no release yet")
    for r in rows:
        mark = "*" if r["production"] else " "
        click.echo(f"{mark} {r['version']}  {r['created_at']}  {(r['git_commit'] or '-')[:10]}"
                   f"{'  major' if r['major'] else ''}  {r['notes']}")


@release.command("show")
@click.argument("game")
@click.argument("version")
@click.pass_context
@guarded
def show_cmd(ctx: click.Context, game: str, version: str) -> None:
    """The manifest of a release, as JSON."""
    from framework.releases.builds import release_manifest

    click.echo(json.dumps(release_manifest(site_of(ctx), game, version), indent=1, sort_keys=True))


@release.command("check")
@click.argument("game")
@click.argument("version", required=False)
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
@guarded
def check_cmd(ctx: click.Context, game: str, version: str | None, as_json: bool) -> None:
    """Compare a release (default: the latest) with production; exit 1 on errors."""
    from framework.releases.check import check

    report = check(site_of(ctx), game, version).to_json()
    if as_json:
        click.echo(json.dumps(report, indent=1))
    else:
        click.echo(f"{game} {report['candidate']} against production {report['production'] or '-'}:")
        _print_report(report)
    if not report["ok"]:
        sys.exit(1)


@release.command("deploy")
@click.argument("game")
@click.argument("version")
@click.option("--block", is_flag=True, help="Block the game, upgrade every table, unblock.")
@click.option("--force", is_flag=True, help="Deploy despite errors of the check.")
@click.pass_context
@guarded
def deploy_cmd(ctx: click.Context, game: str, version: str, block: bool, force: bool) -> None:
    """Make VERSION the production release of GAME."""
    from framework.releases.deploy import deploy
    from framework.releases.upgrade import production_tables

    site = site_of(ctx)
    count = len(production_tables(site, game)) if block else 0
    with click.progressbar(length=count, label="upgrading", file=sys.stderr, show_pos=True) as bar:
        result = deploy(site, game, version, block=block, force=force, progress=bar.update)
    click.echo(f"{game} {version} is in production (was {result['previous'] or '-'})")
    _print_report(result["check"])
    if result["upgrade"]:
        _print_summary(result["upgrade"])
    _print_blocked(result)


def _print_blocked(result: dict[str, Any]) -> None:
    """What ``deploy`` did for blocked tables and the game's block and status."""
    tables = result["blocked_tables"]
    if tables["repaired"]:
        count = len(tables["repaired"])
        click.echo(f"unblocked {count} table{'s' if count != 1 else ''}: "
                   + ", ".join(map(str, tables["repaired"])))
    if tables["remaining"]:
        count = len(tables["remaining"])
        click.echo(f"{count} table remains blocked:" if count == 1 else f"{count} tables remain blocked:")
        for t in tables["remaining"]:
            click.echo(f"  table {t['table']}: {t['reason']}")
    if result["game_blocked"]:
        click.echo(f"{result['game']} stays blocked (it was blocked before the deploy): "
                   f"arena game unblock {result['game']}")
    if result["status"] != result["status_before"]:
        click.echo(f"{result['game']} is {result['status']} again (a major release)")


def _print_summary(summary: dict[str, object]) -> None:
    click.echo(f"upgraded {summary['upgraded']}, already current {summary['current']}, "
               f"failed {summary['failed']}")
    failures = summary.get("failures") or []
    assert isinstance(failures, list)
    for f in failures:
        click.echo(f"  table {f['table']}: {f['error']}")


@release.command("rollback")
@click.argument("game")
@click.pass_context
@guarded
def rollback_cmd(ctx: click.Context, game: str) -> None:
    """Go back to the previous production release."""
    from framework.releases.deploy import rollback

    result = rollback(site_of(ctx), game)
    click.echo(f"{game} is back on {result['version']} (was {result['previous']})")


@click.group()
def game() -> None:
    """A game's status and blocking."""


@game.command("status")
@click.argument("name")
@click.argument("status", required=False, type=click.Choice([stage.value for stage in ReleaseStage]))
@click.pass_context
@guarded
def status_cmd(ctx: click.Context, name: str, status: str | None) -> None:
    """Show or set alpha / beta / gold."""
    from framework.releases.deploy import set_status

    click.echo(f"{name}: {set_status(site_of(ctx), name, status)}")


@game.command("block")
@click.argument("name")
@click.pass_context
@guarded
def block_cmd(ctx: click.Context, name: str) -> None:
    """Refuse actions on NAME's production tables until unblocked."""
    from framework.releases.deploy import set_blocked

    set_blocked(site_of(ctx), name, True)
    click.echo(f"{name} is blocked")


@game.command("unblock")
@click.argument("name")
@click.pass_context
@guarded
def unblock_cmd(ctx: click.Context, name: str) -> None:
    from framework.releases.deploy import set_blocked

    set_blocked(site_of(ctx), name, False)
    click.echo(f"{name} is unblocked")


@click.command("upgrade")
@click.option("--game", "game_name", default=None)
@click.option("--dry-run", is_flag=True)
@click.pass_context
@guarded
def upgrade_cmd(ctx: click.Context, game_name: str | None, dry_run: bool) -> None:
    """Upgrade every production table that is behind its game's production release."""
    from framework.releases.upgrade import production_tables, upgrade_all

    site = site_of(ctx)
    if game_name:
        site.registry.get(game_name)
    count = len(production_tables(site, game_name))
    with click.progressbar(length=count, label="tables", file=sys.stderr, show_pos=True) as bar:
        summary = upgrade_all(site, game_name, dry_run=dry_run, progress=bar.update)
    if dry_run:
        click.echo(f"would upgrade {summary['would_upgrade']}, already current {summary['current']}")
    else:
        _print_summary(summary)
    if summary["failed"]:
        sys.exit(1)
