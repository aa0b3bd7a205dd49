"""``arena i18n ...``: thin wrappers over ``framework.i18n.extract`` and ``framework.i18n.maintain``."""

from __future__ import annotations

import sys

import click

from framework.cli.base import guarded
from framework.game.registry import discover
from framework.i18n import FRAMEWORK
from framework.i18n.maintain import (
    check_catalogs,
    compile_catalogs,
    format_check,
    update_catalogs,
    write_template,
)


def _target(target: str) -> str:
    """TARGET as given; a game's name is first looked up among the installed games (the
    registry tells i18n where each game's folder is)."""
    if target != FRAMEWORK and "/" not in target and not target.startswith("."):
        discover()
    return target


# ---------------------------------------------------------------------------- commands
@click.group("i18n")
def i18n() -> None:
    """Translations: TARGET is a game's name, a game's folder, or 'framework'."""


@i18n.command("extract")
@click.argument("target")
@guarded
def extract_cmd(target: str) -> None:
    """Write TARGET's translations/messages.pot from its Python, template and JS files."""
    result = write_template(_target(target))
    click.echo(f"{result.path}: {result.count} strings" + ("" if result.changed else " (unchanged)"))
    for mistake in result.mistakes:
        click.echo(f"mistake: {mistake}", err=True)
    if result.mistakes:
        sys.exit(1)


@i18n.command("update")
@click.argument("target")
@click.option("--lang", "languages", multiple=True, help="Only this language (repeatable); creates it.")
@click.option("--drop-gone", is_flag=True,
              help="Make translated strings gone from the sources obsolete, instead of keeping them for "
                   "the log lines of games in progress (once no game in progress shows them).")
@guarded
def update_cmd(target: str, languages: tuple[str, ...], drop_gone: bool) -> None:
    """Update (or create) each language's .po from messages.pot, keeping translations
    (of strings gone from the sources too, for games in progress); run extract first."""
    for r in update_catalogs(_target(target), languages or None, in_use=() if drop_gone else None):
        state = "created" if r.created else ("updated" if r.changed else "unchanged")
        click.echo(f"{r.lang}: {r.path} {state}; {r.untranslated} untranslated, {r.fuzzy} fuzzy")


@i18n.command("compile")
@click.argument("target")
@click.option("--lang", "languages", multiple=True)
@guarded
def compile_cmd(target: str, languages: tuple[str, ...]) -> None:
    """Compile each .po to .mo (optional: the .po is compiled in memory when needed)."""
    for r in compile_catalogs(_target(target), languages or None):
        click.echo(f"{r.lang}: {r.path}: {r.translated} translated, {r.skipped} left in English")


@i18n.command("check")
@click.argument("target")
@click.option("--lang", "languages", multiple=True)
@click.option("--strict", is_flag=True, help="Exit 1 if anything is untranslated, fuzzy or wrong.")
@click.option("--quiet", "-q", is_flag=True, help="Counts only, not each string.")
@guarded
def check_cmd(target: str, languages: tuple[str, ...], strict: bool, quiet: bool) -> None:
    """List untranslated and fuzzy strings (and broken placeholders) per language."""
    report = check_catalogs(_target(target), languages or None)
    click.echo(format_check(report, verbose=not quiet))
    if strict and not report.ok:
        sys.exit(1)
