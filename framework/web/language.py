"""The player's language: saved choice, else Accept-Language, else English; translators
for templates (Jinja's i18n extension), messages and the JS client's strings."""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path
from typing import Any

from flask import Blueprint, Flask, g, redirect, request, session
from werkzeug.datastructures import LanguageAccept

from framework import i18n
from framework.i18n import Translate
from framework.platform.models import Player, db
from framework.web.redirects import safe_next, same_site_path

log = logging.getLogger(__name__)

bp = Blueprint("language", __name__)

LANGUAGES = {"en": "English", "fr": "Français", "it": "Italiano", "hu": "Magyar"}
JS_MSGID = re.compile(r"""\b_\(\s*(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)')\s*\)""")


def _identity(text: str) -> str:
    return text


def translator_for(lang: str, game: str | Path | None = None) -> Translate:
    """``framework.i18n.translator`` when it exists; the identity otherwise (or on error).

    ``game`` is a game's name (its installed catalogs) or a game's folder (the catalogs of a
    stored release: see ``play.catalog_of``)."""
    translator = getattr(i18n, "translator", None)
    if translator is None:
        return _identity
    try:
        return translator(lang, game)  # type: ignore[no-any-return]
    except Exception:
        log.exception("no translator for %s/%s", lang, game)
        return _identity


def negotiate(accept_language: str | LanguageAccept | None, saved: str | None) -> str:
    """The saved language if known, else the best of Accept-Language, else ``en``."""
    return i18n.negotiate_language(accept_language, saved)


def current_language() -> str:
    """The request's language, worked out on first use (a move's JSON answer never asks).

    A signed-in player's saved language is kept in the session once it was read from the
    account, so the account row is read once, not on every request that translates."""
    lang = g.get("lang")
    if lang is None:
        saved = session.get("lang")
        if saved is None and session.get("account_id"):

            with db.session.begin():
                acc = db.session.get(Player, session["account_id"])
                saved = acc.language if acc else None
            if saved in LANGUAGES:
                session["lang"] = saved
        lang = negotiate(request.accept_languages, saved)
        g.lang = lang
    return str(lang)


class LazyTranslate:
    """``g.translate``: the request's translator (site catalogs), looked up on first use; a
    request that translates nothing (an accepted move) never negotiates its language."""

    __slots__ = ("_translate",)

    def __init__(self) -> None:
        self._translate: Translate | None = None

    def resolved(self) -> Translate:
        translate = self._translate
        if translate is None:
            translate = self._translate = translator_for(current_language(), None)
        return translate

    def __call__(self, text: str) -> str:
        return self.resolved()(text)

    def __getattr__(self, name: str) -> Any:
        # the translator's extras (ngettext, lang, client_catalog), when it has them
        return getattr(self.resolved(), name)


def translate(text: str, game: str | None = None) -> str:
    return translator_for(current_language(), game)(text)


def init_app(app: Flask) -> None:
    app.jinja_env.add_extension("jinja2.ext.i18n")

    def gettext(text: str, **variables: Any) -> str:
        out = translate(text, g.get("game"))
        return out % variables if variables else out

    def ngettext(singular: str, plural: str, n: int, **variables: Any) -> str:
        out = translate(singular if n == 1 else plural, g.get("game"))
        variables.setdefault("num", n)
        return out % variables

    app.jinja_env.install_gettext_callables(gettext, ngettext, newstyle=True)  # type: ignore[attr-defined]

    @app.before_request
    def _set_translate() -> None:
        g.translate = LazyTranslate()

    @app.context_processor
    def _language_context() -> dict[str, Any]:
        return {"lang": current_language(), "languages": LANGUAGES}


@bp.post("/lang")
def set_language() -> Any:
    """The language switcher: takes effect at once, saved on the account when signed in."""
    lang = request.form.get("lang", "")
    if lang in LANGUAGES:
        session["lang"] = lang
        if session.get("account_id"):

            with db.session.begin():
                acc = db.session.get(Player, session["account_id"])
                if acc is not None:
                    acc.language = lang
    back = request.form.get("next") or same_site_path(request.referrer, request.host)
    return redirect(safe_next(back))


@lru_cache(maxsize=64)
def js_msgids(paths: tuple[Path, ...]) -> tuple[str, ...]:
    """Strings marked ``_("...")`` in the given JS files (read once per process)."""
    found: list[str] = []
    for path in paths:
        if not path.exists():
            continue
        for m in JS_MSGID.finditer(path.read_text(encoding="utf-8")):
            text = m.group(1) if m.group(1) is not None else m.group(2)
            text = text.encode("utf-8").decode("unicode_escape") if "\\" in text else text
            if text not in found:
                found.append(text)
    return tuple(found)


def js_catalog(msgids: Iterable[str], game: str | Path | None) -> dict[str, Any]:
    """msgid -> translation (or plural forms), for the client's ``_()``; untranslated
    strings left out. The i18n catalogs' client catalog when they offer one."""
    tr_game = translator_for(current_language(), game)
    out: dict[str, Any] = {}
    client = getattr(tr_game, "client_catalog", None)
    if client is not None:
        try:
            out.update(client().get("messages", {}))
        except Exception:
            log.exception("client catalog of %s", game)
    for msgid in msgids:
        if not msgid or msgid in out:
            continue
        text = tr_game(msgid)
        if text != msgid:
            out[msgid] = text
    return out
