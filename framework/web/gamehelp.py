"""Game help: ``games/<g>/help/<lang>.md`` in the player's language (English as fallback),
rendered as safe HTML (raw HTML in the source is shown as text, links are checked)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as etree
from pathlib import Path
from typing import Any

import markdown
from flask import Blueprint, abort, render_template
from markdown.treeprocessors import Treeprocessor
from markupsafe import Markup

from framework.core.errors import ArenaError
from framework.web.current import site
from framework.web.language import current_language, translator_for

bp = Blueprint("gamehelp", __name__)

SAFE_URL = re.compile(r"^(https?:|mailto:|/|#|\.{0,2}/?[\w\-./]*$)", re.IGNORECASE)


class _SafeLinks(Treeprocessor):  # type: ignore[misc]  # markdown ships no types
    """Drop ``javascript:`` and other unexpected schemes from links and images."""

    def run(self, root: etree.Element) -> None:
        for el in root.iter():
            for attr in ("href", "src"):
                value = el.get(attr)
                if value is not None and not SAFE_URL.match(value.strip()):
                    el.set(attr, "#")


def render_markdown(text: str) -> Markup:
    """Markdown to HTML with raw HTML disabled (shown escaped) and safe links only."""
    md = markdown.Markdown(extensions=["tables", "fenced_code", "sane_lists", "toc"])
    md.preprocessors.deregister("html_block")
    md.inlinePatterns.deregister("html")
    md.treeprocessors.register(_SafeLinks(md), "safe_links", 0)
    return Markup(md.convert(text))


def help_file(directory: Path, lang: str) -> tuple[Path | None, str]:
    """The help file for ``lang`` (else English, else any), and the language found."""
    folder = directory / "help"
    for candidate in (lang, "en"):
        path = folder / f"{candidate}.md"
        if path.is_file():
            return path, candidate
    found = sorted(folder.glob("*.md")) if folder.is_dir() else []
    return (found[0], found[0].stem) if found else (None, "")


@bp.get("/gamehelp")
def index() -> Any:
    s = site()
    lang = current_language()
    games = []
    for name in s.registry.names():
        try:
            gdef = s.registry.get(name)
        except ArenaError:
            continue
        path, _ = help_file(gdef.directory, lang)
        games.append({"name": name, "title": translator_for(lang, name)(gdef.info.display_name),
                      "has_help": path is not None, "min": gdef.info.min_players,
                      "max": gdef.info.max_players})
    return render_template("gamehelp/index.html", games=games)


@bp.get("/gamehelp/<game>")
def page(game: str) -> Any:
    s = site()
    if game not in s.registry.names():
        abort(404)
    gdef = s.registry.get(game)
    lang = current_language()
    path, found = help_file(gdef.directory, lang)
    body = render_markdown(path.read_text(encoding="utf-8")) if path else None
    return render_template("gamehelp/page.html", game=game,
                           title=translator_for(lang, game)(gdef.info.display_name),
                           body=body, help_lang=found, fallback=bool(path) and found != lang)
