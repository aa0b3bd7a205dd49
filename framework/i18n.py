"""Translatable strings: markers, ``${arg}`` substitution with plurals, per-language translators
(game catalog, then the framework's, then English) and the choice of a player's language."""

from __future__ import annotations

import contextvars
import functools
import gettext as _gettext
import importlib.util
import io
import logging
import os
import re
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

PLACEHOLDER = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")

#: Languages shipped with the framework and Belote; English is the source language.
SUPPORTED_LANGUAGES: tuple[str, ...] = ("en", "fr", "it", "hu")
SOURCE_LANGUAGE = "en"
DOMAIN = "messages"
#: The catalog name of the framework's own strings (``arena i18n extract framework``).
FRAMEWORK = "framework"
FRAMEWORK_DIR = Path(__file__).resolve().parent

#: Reserved notification arg: how a stored log names its plural form (see ``format_message``).
PLURAL_ARG = "_plural"

Translate = Callable[[str], str]


# ---------------------------------------------------------------------------- markers
def clienttranslate(msgid: str) -> str:
    """Mark ``msgid`` for extraction; the string is translated for each recipient later.

    >>> clienttranslate("${player_name} passes")
    '${player_name} passes'
    """
    return msgid


totranslate = clienttranslate


class PluralMessage(str):
    """A msgid with a plural form: its text is the English singular (what a log stores); the
    plural and the name of the arg that holds the number travel with it."""

    plural: str
    number: str

    def __new__(cls, singular: str, plural: str, number: str = "count") -> PluralMessage:
        self = super().__new__(cls, singular)
        self.plural = plural
        self.number = number
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (PluralMessage, (str(self), self.plural, self.number))


def clienttranslate_plural(singular: str, plural: str, number: str = "count") -> PluralMessage:
    """Mark a message with a plural form; ``number`` names the arg that chooses the form.

    The result is used where a msgid is (a notification log, a ``UserError``, a state
    description); each language picks its own form (French, Italian: one/many/other;
    Hungarian: one/other).

    >>> msg = clienttranslate_plural("${player_name} wins ${count} trick",
    ...                              "${player_name} wins ${count} tricks")
    >>> format_message(msg, {"player_name": "Ann", "count": 3})
    'Ann wins 3 tricks'
    """
    return PluralMessage(singular, plural, number)


# ---------------------------------------------------------------------------- formatting
class MessageFormatError(KeyError):
    """A log message names a placeholder that its args do not provide."""

    def __str__(self) -> str:
        return str(self.args[0])


@functools.lru_cache(maxsize=4096)
def _placeholders(text: str) -> tuple[str, ...]:
    return tuple(PLACEHOLDER.findall(text))


def placeholders(msgid: str) -> list[str]:
    """Names of the ``${...}`` placeholders in ``msgid``, in order.

    >>> placeholders("${player_name} plays ${card}")
    ['player_name', 'card']
    """
    return list(_placeholders(str(msgid)))


def plural_spec(msgid: str, args: Mapping[str, Any]) -> tuple[str, str] | None:
    """``(plural msgid, number arg)`` of a message, from a ``PluralMessage`` or from the
    ``_plural`` arg that a stored notification carries; None for a message without plural."""
    if isinstance(msgid, PluralMessage):
        return msgid.plural, msgid.number
    spec = args.get(PLURAL_ARG) if isinstance(args, Mapping) else None
    if isinstance(spec, Mapping) and isinstance(spec.get("plural"), str):
        return str(spec["plural"]), str(spec.get("number", "count"))
    return None


def with_plural_args(log_msg: str, args: Mapping[str, Any]) -> dict[str, Any]:
    """``args`` plus what a stored log needs to keep its plural form (``_plural``), also for
    nested ``{"log", "args"}`` values. Called when a notification is written.

    >>> with_plural_args(clienttranslate_plural("a trick", "${count} tricks"), {"count": 2})
    {'count': 2, '_plural': {'plural': '${count} tricks', 'number': 'count'}}
    """
    out = dict(args)
    for name, value in args.items():
        if isinstance(value, Mapping) and "log" in value:
            nested = dict(value)
            nested["args"] = with_plural_args(value["log"], value.get("args", {}))
            out[name] = nested
    if isinstance(log_msg, PluralMessage):
        out[PLURAL_ARG] = {"plural": log_msg.plural, "number": log_msg.number}
    return out


def _identity(text: str) -> str:
    return text


def _english_plural(singular: str, plural: str, n: int) -> str:
    return singular if n == 1 else plural


def _number(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        return int(value)
    return None


def check_message_args(msgid: str, args: Mapping[str, Any]) -> None:
    """Raise ``MessageFormatError`` if ``msgid`` (or its plural) names an arg ``args`` lack,
    if the plural's number is missing or not a whole number, or if ``i18n`` names a missing arg.
    """
    spec = plural_spec(msgid, args)
    texts = [str(msgid)] + ([spec[0]] if spec else [])
    for text in texts:
        for name in placeholders(text):
            if name not in args:
                raise MessageFormatError(
                    f"message {str(msgid)!r} uses ${{{name}}} but no arg {name!r} was given"
                )
    if spec is not None:
        if spec[1] not in args:
            raise MessageFormatError(
                f"message {str(msgid)!r} has a plural chosen by arg {spec[1]!r}, which was not given"
            )
        if _number(args[spec[1]]) is None:
            raise MessageFormatError(
                f"message {str(msgid)!r}: the plural's arg {spec[1]!r} must be a whole number, "
                f"not {args[spec[1]]!r}"
            )
    missing = [name for name in args.get("i18n", ()) if name not in args]
    if missing:
        raise MessageFormatError(f"message {str(msgid)!r}: i18n names args that are missing: {missing}")


def format_message(
    msgid: str,
    args: Mapping[str, Any],
    translate: Translate | None = None,
    strict: bool = True,
) -> str:
    """Translate ``msgid`` and fill ``${name}`` from ``args``.

    Args listed in ``args["i18n"]`` are translated too; others (player names) never are.
    A nested ``{"log": ..., "args": ...}`` arg is formatted recursively. A message with a
    plural (``clienttranslate_plural``, or ``args["_plural"] = {"plural": ..., "number":
    "count"}`` in a stored log) takes the form its language uses for ``args[number]``; the
    translator's ``ngettext`` chooses it (English rules without one).

    A translation whose placeholders the args do not fill is never shown: the English message
    is, and a warning is logged (``arena i18n check`` reports such translations).

    Raises:
        MessageFormatError: with ``strict``, a placeholder of the English message has no arg,
            or the plural's number is missing.

    >>> format_message("${player_name} takes ${points} points", {"player_name": "Ann", "points": 20})
    'Ann takes 20 points'
    """
    if strict:
        check_message_args(msgid, args)
    if not msgid:
        return ""
    tr: Translate = translate or _identity
    spec = plural_spec(msgid, args)
    n = _number(args.get(spec[1])) if spec is not None else None
    if spec is not None and n is not None:
        english = _english_plural(str(msgid), spec[0], n)
        choose = getattr(translate, "ngettext", None)
        text = choose(str(msgid), spec[0], n) if choose is not None else english
    else:
        english = str(msgid)
        text = tr(str(msgid))
    if text != english:
        try:
            return _substitute(text, args, translate, True)
        except MessageFormatError as exc:
            lang = getattr(translate, "lang", "?")
            log.warning("the %s translation of %r cannot be filled (%s): English shown", lang, english, exc)
    return _substitute(english, args, translate, strict)


def _substitute(text: str, args: Mapping[str, Any], translate: Translate | None, strict: bool) -> str:
    tr: Translate = translate or _identity
    i18n = set(args.get("i18n", ()))

    def fill(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in args:
            if strict:
                raise MessageFormatError(f"message {text!r} uses ${{{name}}} but no arg {name!r} was given")
            return match.group(0)
        value = args[name]
        if isinstance(value, Mapping) and "log" in value:
            return format_message(str(value["log"]), value.get("args", {}), translate, strict)
        if name in i18n and isinstance(value, str):
            return tr(value) if value else ""
        return str(value)

    return PLACEHOLDER.sub(fill, text)


# ---------------------------------------------------------------------------- catalogs
_game_dirs: dict[str, Path] = {}
_registered_dirs: dict[str, Path] = {}
_unknown_games: set[str] = set()  # warned about once; forgotten by clear_cache()


def register_game_directory(game: str, directory: Path | str) -> None:
    """Where the files of ``game`` are, for a game loaded from a folder rather than found by
    the registry (test fixtures, stored releases)."""
    _registered_dirs[game] = Path(directory).resolve()
    clear_cache()


def game_directory(game: str) -> Path:
    """The package folder of ``game``, found at run time (the framework never imports games).

    Raises:
        NotFoundError: no installed or loaded game has that name.
    """
    if game in _registered_dirs:
        return _registered_dirs[game]
    if game in _game_dirs:
        return _game_dirs[game]
    found: Path | None = None
    from framework.registry import discover

    package = discover().get(game)
    if package is not None:
        spec = importlib.util.find_spec(package)
        if spec is not None and spec.submodule_search_locations:
            found = Path(next(iter(spec.submodule_search_locations))).resolve()
    if found is None:
        # A game loaded from a folder (load_game_from_directory) under another module name.
        for module in list(sys.modules.values()):
            info = getattr(module, "GAME_INFO", None)
            if getattr(info, "name", None) == game and getattr(module, "__file__", None):
                found = Path(str(module.__file__)).resolve().parent
                break
    if found is None:
        from framework.errors import NotFoundError

        raise NotFoundError("No game named ${game}", "unknown_game", game=game)
    _game_dirs[game] = found
    return found


def catalog_dir(game: str | os.PathLike[str] | None) -> Path:
    """The translations folder of a game (``games/<g>/translations``), or of the framework
    (``framework/translations``) for None or ``"framework"``; a path is a game's folder.

    Layout: ``messages.pot`` and ``<lang>/LC_MESSAGES/messages.po`` (``.mo`` when compiled).
    """
    if game is None or game == FRAMEWORK:
        return FRAMEWORK_DIR / "translations"
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
        _game_dirs.clear()
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
def _parse_accept_language(header: str) -> list[tuple[str, float]]:
    out: list[tuple[str, float, int]] = []
    for position, part in enumerate(header.split(",")):
        bits = [b.strip() for b in part.split(";")]
        tag = bits[0]
        if not tag:
            continue
        q = 1.0
        for b in bits[1:]:
            if b.lower().startswith("q="):
                try:
                    q = float(b[2:])
                except ValueError:
                    q = -1.0  # malformed: ignored
        if 0 < q <= 1:
            out.append((tag, q, position))
    out.sort(key=lambda item: (-item[1], item[2]))
    return [(tag, q) for tag, q, _position in out]


def negotiate_language(accept_language: str | None, saved: str | None = None) -> str:
    """The player's language: their saved choice, else the best of the browser's
    ``Accept-Language`` (q-values; ``fr-CA`` falls back to ``fr``), else English.

    >>> negotiate_language("de-DE,de;q=0.9,it;q=0.8,en;q=0.5")
    'it'
    >>> negotiate_language("fr-CA", saved="hu")
    'hu'
    """
    return _negotiate(accept_language or "", saved or "")


@functools.lru_cache(maxsize=4096)
def _negotiate(accept_language: str, saved: str) -> str:
    """``negotiate_language``, once per (header, saved choice): browsers send the same
    header on every request."""
    saved_base = _base_language(saved)
    if saved_base in SUPPORTED_LANGUAGES:
        return saved_base
    for tag, _q in _parse_accept_language(accept_language):
        if tag == "*":
            return SOURCE_LANGUAGE
        base = _base_language(tag)
        if base in SUPPORTED_LANGUAGES:
            return base
    return SOURCE_LANGUAGE


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
    english = _english_plural(singular, plural, n)
    try:
        return _substitute(text, args, current_translator(), strict=True)
    except MessageFormatError:
        return _substitute(english, args, current_translator(), strict=False)
