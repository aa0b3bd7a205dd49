"""``arena user ...``: accounts and their roles (admin, developer of a game), from the shell."""

from __future__ import annotations

import click

from framework.cli.base import guarded, site_of
from framework.platform import accounts


@click.group()
def user() -> None:
    """Accounts: add, list, admins, developers of a game, passwords, removal."""


@user.command("add")
@click.argument("name")
@click.option("--password", prompt=True, hide_input=True, confirmation_prompt=True,
              help="The account's password (asked when not given).")
@click.option("--admin", is_flag=True, help="An admin: every right on the site.")
@click.pass_context
@guarded
def add_cmd(ctx: click.Context, name: str, password: str, admin: bool) -> None:
    """Add the account NAME (the site's first account is an admin)."""
    platform = site_of(ctx).platform
    account_id = accounts.add_account(platform, name, password, admin)
    roles = [a for a in accounts.list_accounts(platform) if a.id == account_id]
    click.echo(f"added {name} (id {account_id}{', admin' if roles and roles[0].is_admin else ''})")


@user.command("list")
@click.pass_context
@guarded
def list_cmd(ctx: click.Context) -> None:
    """Every account with its roles."""
    rows = accounts.list_accounts(site_of(ctx).platform)
    if not rows:
        click.echo("no accounts yet")
    for a in rows:
        roles = (["admin"] if a.is_admin else []) + [f"developer of {g}" for g in a.developer_of]
        click.echo(f"{a.id}\t{a.name}\t{', '.join(roles) or 'player'}")


@user.command("admin")
@click.argument("name")
@click.option("--unset", is_flag=True, help="No longer an admin.")
@click.pass_context
@guarded
def admin_cmd(ctx: click.Context, name: str, unset: bool) -> None:
    """Make NAME an admin (--unset: no longer one)."""
    accounts.set_admin(site_of(ctx).platform, name, not unset)
    click.echo(f"{name} is {'no longer ' if unset else ''}an admin")


@user.command("grant")
@click.argument("name")
@click.argument("game")
@click.pass_context
@guarded
def grant_cmd(ctx: click.Context, name: str, game: str) -> None:
    """Make NAME a developer of GAME."""
    site = site_of(ctx)
    site.registry.get(game)  # an unknown game is one clear line
    added = accounts.grant_developer(site.platform, name, game)
    click.echo(f"{name} {'is now' if added else 'already was'} a developer of {game}")


@user.command("revoke")
@click.argument("name")
@click.argument("game")
@click.pass_context
@guarded
def revoke_cmd(ctx: click.Context, name: str, game: str) -> None:
    """NAME is no longer a developer of GAME."""
    removed = accounts.revoke_developer(site_of(ctx).platform, name, game)
    click.echo(f"{name} {'is no longer' if removed else 'was not'} a developer of {game}")


@user.command("password")
@click.argument("name")
@click.option("--password", prompt="New password", hide_input=True, confirmation_prompt=True,
              help="The new password (asked when not given).")
@click.pass_context
@guarded
def password_cmd(ctx: click.Context, name: str, password: str) -> None:
    """Give NAME a new password; every session of the account ends."""
    accounts.set_password(site_of(ctx).platform, name, password)
    click.echo(f"{name} has a new password; their sessions have ended")


@user.command("remove")
@click.argument("name")
@click.pass_context
@guarded
def remove_cmd(ctx: click.Context, name: str) -> None:
    """Remove the account NAME (a player who sat at tables stays in their history, without
    a password or roles)."""
    deleted = accounts.remove_account(site_of(ctx).platform, name)
    click.echo(f"removed {name}" + ("" if deleted else " (kept in the history of its tables, signed out)"))
