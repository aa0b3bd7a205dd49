"""Per-language translators: a game's catalog, then the framework's, then English; the
choice of a player's language; ``_()`` for immediate use."""

from __future__ import annotations

import contextvars
import functools
import gettext as _gettext
import io
import logging
import os
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from babel.core import negotiate_locale
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header

from framework.core.errors import NotFoundError
from framework.core.messages import MessageFormatError, english_plural, format_message, substitute

log = logging.getLogger(__name__)

#: Languages shipped with the framework and Belote; English is the source language.
SUPPORTED_LANGUAGES: tuple[str, ...] = ("en", "fr", "it", "hu")
SOURCE_LANGUAGE = "en"
DOMAIN = "messages"
#: The catalog name of the framework's own strings (``arena i18n extract framework``).
FRAMEWORK = "framework"
FRAMEWORK_DIR = Path(__file__).resolve().parents[1]

# ---------------------------------------------------------------------------- catalogs
_registered_dirs: dict[str, Path] = {}
_unknown_games: set[str] = set()  # warned about once; forgotten by clear_cache()


def register_game_directory(game: str, directory: Path | str, replace: bool = True) -> None:
    """Where the files of ``game`` are, for a game loaded from a folder rather than found by
    the registry (test fixtures, stored releases); the registry calls it for every game it finds
    or loads, with ``replace=False`` (the first folder found for a name keeps it)."""
    path = Path(directory).resolve()
    if not replace and game in _registered_dirs:
        return
    if _registered_dirs.get(game) != path:
        _registered_dirs[game] = path
        clear_cache()


def game_directory(game: str) -> Path:
    """The package folder of ``game``, as the game registry registered it when it found or
    loaded the game (the framework never imports games).

    Raises:
        NotFoundError: no found or loaded game has that name.
    """
    found = _registered_dirs.get(game)
    if found is None:
        raise NotFoundError("No game named ${game}", "unknown_game", game=game)
    return found


def catalog_dir(game: str | os.PathLike[str] | None) -> Path:
    """The translations folder of a game (``games/<g>/translations``), or of the framework
    (``framework/i18n/translations``) for None or ``"framework"``; a path is a game's folder.

    Layout: ``messages.pot`` and ``<lang>/LC_MESSAGES/messages.po`` (``.mo`` when compiled).
    """
    if game is None or game == FRAMEWORK:
        return FRAMEWORK_DIR / "i18n" / "translations"
    if isinstance(game, os.PathLike):
        path = os.fspath(game)
        return (_resolved(path) if os.path.isabs(path) else Path(path).resolve()) / "translations"
    return game_directory(game) / "translations"


@functools.lru_cache(maxsize=1024)
def _resolved(path: str) -> Path:
    """``Path(path).resolve()`` of an absolute path, once (a table's catalog is looked up
    on every request)."""
    return Path(path).resolve()


def po_path(directory: Path, lang: str) -> Path:
    return directory / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def _base_language(lang: str | None) -> str:
    return (lang or "").strip().replace("_", "-").split("-")[0].lower()


def _load_catalog(directory: Path, lang: str) -> _gettext.GNUTranslations | None:
    """A compiled .mo if it is fresh, else the .po compiled in memory; fuzzy entries left out."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po
    from babel.support import Translations

    po = po_path(directory, lang)
    mo = po.with_suffix(".mo")
    try:
        if mo.exists() and (not po.exists() or mo.stat().st_mtime_ns >= po.stat().st_mtime_ns):
            with mo.open("rb") as fp:
                return Translations(fp, domain=DOMAIN)
        if po.exists():
            with po.open("rb") as fp:
                catalog = read_po(fp, locale=lang, domain=DOMAIN)
            buf = io.BytesIO()
            write_mo(buf, catalog, use_fuzzy=False)
            buf.seek(0)
            return Translations(buf, domain=DOMAIN)
    except Exception:
        log.exception("cannot read the %s catalog in %s: its strings stay in English", lang, directory)
    return None


def _signature(directories: tuple[Path, ...], lang: str) -> tuple[int, ...]:
    out: list[int] = []
    for d in directories:
        po = po_path(d, lang)
        for path in (po, po.with_suffix(".mo")):
            try:
                out.append(path.stat().st_mtime_ns)
            except OSError:
                out.append(0)
    return tuple(out)


@dataclass
class Translator:
    """Translates msgids into one language: the game's catalog, then the framework's, then
    English. Callable like ``gettext``; ``ngettext`` picks plural forms."""

    lang: str
    game: str | None
    directories: tuple[Path, ...] = ()
    _chain: _gettext.NullTranslations = field(default_factory=_gettext.NullTranslations)
    _client: dict[str, Any] | None = None

    def __call__(self, msgid: str) -> str:
        return self.gettext(msgid)

    def gettext(self, msgid: str) -> str:
        if not msgid:
            return ""  # gettext("") is the catalog's header
        return self._chain.gettext(str(msgid))

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self._chain.ngettext(str(singular), str(plural), n)

    def is_translated(self, msgid: str) -> bool:
        """Whether some catalog of the chain has a translation of ``msgid``."""
        chain: _gettext.NullTranslations | None = self._chain
        while chain is not None:
            if isinstance(chain, _gettext.GNUTranslations) and (
                msgid in chain._catalog or (msgid, 0) in chain._catalog  # type: ignore[attr-defined]
            ):
                return True
            chain = getattr(chain, "_fallback", None)
        return False

    def client_catalog(self) -> dict[str, Any]:
        """For the JS client's ``_()``: ``{"lang", "plural_forms", "messages": {msgid: text or
        [forms]}}``; the game's strings override the framework's, untranslated ones are left out.
        """
        if self._client is None:
            self._client = _client_catalog(self.lang, self.directories)
        return self._client


def _client_catalog(lang: str, directories: tuple[Path, ...]) -> dict[str, Any]:
    from babel.messages.pofile import read_po

    messages: dict[str, Any] = {}
    plural_forms = "nplurals=2; plural=(n != 1);"
    for directory in reversed(directories):  # framework first, the game overrides it
        po = po_path(directory, lang)
        if not po.exists():
            continue
        try:
            with po.open("rb") as fp:
                catalog = read_po(fp, locale=lang, domain=DOMAIN)
        except Exception:
            log.exception("cannot read %s", po)
            continue
        plural_forms = catalog.plural_forms
        for message in catalog:
            if not message.id or message.fuzzy or not message.string:
                continue
            if isinstance(message.id, (list, tuple)):
                forms = list(message.string)
                if all(forms):
                    messages[message.id[0]] = forms
            else:
                messages[message.id] = message.string
    return {"lang": lang, "plural_forms": plural_forms, "messages": messages}


#: a catalog file changed on disk is taken up within this many seconds (``translator``
#: looks at the files' times at most this often for one language and game)
RECHECK_S = 1.0
MAX_CACHED = 4096
# (lang, game) as asked -> (when the files were last looked at, their times, the translator)
_cache: dict[tuple[str, Any], tuple[float, tuple[int, ...], Translator]] = {}
_cache_lock = threading.Lock()


def clear_cache() -> None:
    """Forget loaded catalogs and game folders (they are also reloaded when a file changes)."""
    with _cache_lock:
        _cache.clear()
        _unknown_games.clear()


def translator(lang: str, game: str | os.PathLike[str] | None = None) -> Translator:
    """The translator into ``lang`` for ``game``'s strings (and the framework's).

    Cached per (lang, game), reloaded when a catalog file changes (seen within
    ``RECHECK_S``: every request asks for its translator, and looking at the catalog files
    each time costs system calls). ``"en"`` and unknown languages translate nothing;
    English plural rules still apply.
    """
    key = (lang, game)
    now = time.monotonic()
    cached = _cache.get(key)
    if cached is not None and now - cached[0] < RECHECK_S:
        return cached[2]
    base = _base_language(lang) or SOURCE_LANGUAGE
    key_game = None if game is None or game == FRAMEWORK else os.fspath(game)
    directories: list[Path] = []
    if key_game is not None and key_game not in _unknown_games:
        try:
            directories.append(catalog_dir(game))
        except Exception as exc:
            _unknown_games.add(key_game)
            log.warning("no catalog for game %r (%s): framework strings only", key_game, exc)
    directories.append(catalog_dir(None))
    dirs = tuple(directories)
    signature = () if base == SOURCE_LANGUAGE else _signature(dirs, base)
    if cached is not None and cached[1] == signature:
        result = cached[2]
    elif base == SOURCE_LANGUAGE:
        result = Translator(base, key_game, dirs)
    else:
        result = _load_translator(base, key_game, dirs)
    with _cache_lock:
        if len(_cache) >= MAX_CACHED:
            _cache.clear()
        _cache[key] = (now, signature, result)
    return result


def _load_translator(lang: str, key_game: str | None, dirs: tuple[Path, ...]) -> Translator:
    chain: _gettext.NullTranslations | None = None
    for directory in dirs:
        catalog = _load_catalog(directory, lang)
        if catalog is None:
            continue
        if chain is None:
            chain = catalog
        else:
            chain.add_fallback(catalog)
    if chain is not None:
        chain.add_fallback(_gettext.NullTranslations())
    return Translator(lang, key_game, dirs, chain or _gettext.NullTranslations())


def plural_translator(
    lang: str, game: str | os.PathLike[str] | None = None
) -> Callable[[str, str, int], str]:
    """``ngettext(singular, plural, n)`` into ``lang``, with the same chain as ``translator``."""
    return translator(lang, game).ngettext


# ---------------------------------------------------------------------------- languages
def negotiate_language(accept_language: str | LanguageAccept | None, saved: str | None = None) -> str:
    """The player's language: their saved choice, else the best of the browser's
    ``Accept-Language`` (a header, or werkzeug's ``request.accept_languages``; q-values, and
    ``fr-CA`` falls back to ``fr``), else English.

    >>> negotiate_language("de-DE,de;q=0.9,it;q=0.8,en;q=0.5")
    'it'
    >>> negotiate_language("fr-CA", saved="hu")
    'hu'
    """
    saved_base = _base_language(saved)
    if saved_base in SUPPORTED_LANGUAGES:
        return saved_base
    if not isinstance(accept_language, LanguageAccept):
        accept_language = _parse_accept_language(accept_language or "")
    return _negotiate(tuple(tag for tag, q in accept_language if q > 0))


@functools.lru_cache(maxsize=4096)
def _parse_accept_language(header: str) -> LanguageAccept:
    """werkzeug's parse (best q first, equal q in the header's order; a malformed q drops
    its language), once per header: browsers send the same one on every request."""
    return parse_accept_header(header, LanguageAccept)


@functools.lru_cache(maxsize=4096)
def _negotiate(tags: tuple[str, ...]) -> str:
    """Babel's ``negotiate_locale`` over the browser's languages, best first: each one, or
    its language without the region, before the next; ``*`` (anything) is English."""
    preferred: list[str] = []
    for tag in tags:
        if tag == "*":
            break
        preferred.append(tag.replace("_", "-"))
    found = negotiate_locale(preferred, SUPPORTED_LANGUAGES, sep="-", aliases={})
    return _base_language(found) or SOURCE_LANGUAGE


# ---------------------------------------------------------------------------- immediate use
_current: contextvars.ContextVar[Translator | None] = contextvars.ContextVar("arena_translator", default=None)


@contextmanager
def use_language(lang: str, game: str | os.PathLike[str] | None = None) -> Iterator[Translator]:
    """Within the block, ``_()`` and ``ngettext()`` translate into ``lang`` (a web request
    sets this once)."""
    token = _current.set(translator(lang, game))
    try:
        yield _current.get() or translator(lang, game)
    finally:
        _current.reset(token)


def current_translator() -> Translator:
    return _current.get() or translator(SOURCE_LANGUAGE)


def _(msgid: str, **args: Any) -> str:
    """Translate now into the current language (``use_language``) and fill ``${name}``.

    >>> _("Table ${table_id} created", table_id=3)
    'Table 3 created'
    """
    return format_message(msgid, args, current_translator(), strict=False)


def ngettext(singular: str, plural: str, n: int, **args: Any) -> str:
    """The plural form of the current language for ``n``, filled; ``${count}`` is ``n``
    unless given.

    >>> ngettext("${count} table", "${count} tables", 2)
    '2 tables'
    """
    args.setdefault("count", n)
    text = current_translator().ngettext(singular, plural, n)
    english = english_plural(singular, plural, n)
    try:
        return substitute(text, args, current_translator(), strict=True)
    except MessageFormatError:
        return substitute(english, args, current_translator(), strict=False)
