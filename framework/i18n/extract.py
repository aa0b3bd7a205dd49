"""Message catalogs of a game or of the framework: extract (``.pot``), update (``.po`` per
language), compile (``.mo``) and check; the ``arena i18n`` commands are thin wrappers.

Markers only count around string literals: ``clienttranslate("...")``, ``totranslate``,
``clienttranslate_plural("...", "...", "count")``, ``_("...")`` and ``ngettext`` in Python;
``_("...")``, ``gettext``, ``ngettext`` in Jinja2 templates; ``_("...")``, ``__("lang", "...")``
and ``ngettext`` in JavaScript. A marker around anything else is reported as a mistake, unless
its line says ``i18n: dynamic`` (in a comment: the client translating a log it received). Literal
messages of ``UserError`` (and its subclasses), literal logs of ``notify_all_players`` /
``notify_player`` and literals given to a translator called ``tr(...)`` or ``x.translate(...)``
(the web's ``g.translate``) are extracted too, since they are translated anyway.
"""

from __future__ import annotations

import ast
import io
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_javascript as babel_extract_javascript
from babel.messages.jslexer import Token, division_re, regex_re

try:  # the lexer's rules and state, as Babel's extractor uses them (private from Babel 2.18)
    from babel.messages.jslexer import _get_rules as _js_rules
    from babel.messages.jslexer import _indicates_division as _js_may_divide
except ImportError:  # pragma: no cover - older Babel, where they are public
    from babel.messages.jslexer import get_rules as _js_rules  # type: ignore[attr-defined,no-redef,unused-ignore]
    from babel.messages.jslexer import indicates_division as _js_may_divide  # type: ignore[no-redef,unused-ignore]

from framework.i18n import (
    DOMAIN,
    FRAMEWORK,
    FRAMEWORK_DIR,
    catalog_dir,
)

COMMENT_TAG = "TRANSLATORS:"
#: On the line of a marker around a variable, says it is meant (the client's own ``_(log)``).
DYNAMIC_PRAGMA = "i18n: dynamic"
MsgId = str | tuple[str, ...]

# Python: marker -> number of leading message arguments.
PY_MARKERS = {"clienttranslate": 1, "totranslate": 1, "clienttranslate_plural": 2}
PY_BARE_MARKERS = {"_": 1, "gettext": 1, "ngettext": 2}  # only as plain names: x.gettext() is not one
# Calls whose literal message is extracted although unmarked: name -> index of the message.
PY_IMPLICIT = {"notify_all_players": 1, "notify_player": 2, "tr": 0, "translate": 0}
USER_ERRORS = {"UserError", "NotFoundError", "GameOverError", "NotYourTurnError", "BlockedError",
               "GameCodeError"}
TEMPLATE_MARKERS = {"_": 1, "gettext": 1, "ngettext": 2}
JS_MARKERS = {"_": (0,), "ngettext": (0, 1), "__": (1,)}

# Framework sources that players never see (developer tools, printed in English).
FRAMEWORK_EXCLUDED = ("framework/scaffold/", "framework/cli/__init__.py", "framework/cli/base.py",
                      "framework/cli/commands.py", "framework/cli/i18n.py", "framework/i18n/extract.py",
                      "framework/i18n/maintain.py", "framework/i18n/translations/")
GAME_EXCLUDED_DIRS = {"tests", "translations", "help", "vendor", "node_modules", "__pycache__"}


# ---------------------------------------------------------------------------- targets
@dataclass(frozen=True)
class Target:
    """What a catalog covers: the framework, or one game's folder."""

    name: str
    directory: Path  # translations folder
    base: Path  # locations in the catalog are relative to this
    sources: tuple[Path, ...]

    @property
    def template_path(self) -> Path:
        return self.directory / f"{DOMAIN}.pot"


def resolve_target(target: str | Path | Target) -> Target:
    """``"framework"``, a game's name, or a game's folder.

    Raises:
        NotFoundError: no game has that name.
    """
    if isinstance(target, Target):
        return target
    if isinstance(target, str) and target == FRAMEWORK:
        root = FRAMEWORK_DIR.parent
        return Target(FRAMEWORK, catalog_dir(None), root, tuple(_framework_sources(root)))
    if isinstance(target, Path) or (isinstance(target, str) and ("/" in target or target.startswith("."))):
        game_dir = Path(target).resolve()
        name = game_dir.name
    else:
        from framework.i18n import game_directory

        game_dir = game_directory(str(target))
        name = str(target)
    return Target(name, game_dir / "translations", game_dir.parent, tuple(_game_sources(game_dir)))


def _framework_sources(root: Path) -> Iterator[Path]:
    found: list[Path] = []
    for pattern in ("framework/**/*.py", "framework/**/*.html", "framework/**/*.js"):
        found.extend(root.glob(pattern))
    for path in sorted(set(found)):
        rel = path.relative_to(root).as_posix()
        if rel.startswith(FRAMEWORK_EXCLUDED) or "__pycache__" in rel or _is_vendored(path):
            continue
        yield path


def _game_sources(game_dir: Path) -> Iterator[Path]:
    for path in sorted(game_dir.rglob("*")):
        if path.suffix not in (".py", ".html", ".js") or not path.is_file():
            continue
        if GAME_EXCLUDED_DIRS & set(path.relative_to(game_dir).parts[:-1]) or _is_vendored(path):
            continue
        yield path


def _is_vendored(path: Path) -> bool:
    return path.name.endswith(".min.js") or "vendor" in path.parts or "node_modules" in path.parts


# ---------------------------------------------------------------------------- extraction
@dataclass(frozen=True)
class Found:
    msgid: MsgId
    path: str
    line: int
    comments: tuple[str, ...] = ()


@dataclass(frozen=True)
class Mistake:
    """A marker the extractor cannot read (around a variable, an f-string, a sum...)."""

    path: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.message}"


@dataclass
class Extraction:
    catalog: Catalog
    mistakes: list[Mistake] = field(default_factory=list)
    files: list[str] = field(default_factory=list)

    @property
    def msgids(self) -> list[MsgId]:
        return [m.id if isinstance(m.id, str) else tuple(m.id) for m in self.catalog if m.id]


def _comment_block(lines: Sequence[str], line: int) -> tuple[str, ...]:
    """``# TRANSLATORS: ...`` comment lines just above line ``line`` (1-based)."""
    block: list[str] = []
    i = line - 2
    while i >= 0 and lines[i].strip().startswith(("#", "//")):
        block.insert(0, lines[i].strip().lstrip("#/").strip())
        i -= 1
    for start, text in enumerate(block):
        if text.startswith(COMMENT_TAG):
            return (" ".join(block[start:]),)
    return ()


def _is_dynamic(lines: Sequence[str], line: int) -> bool:
    return 0 < line <= len(lines) and DYNAMIC_PRAGMA in lines[line - 1]


def _literal(node: ast.AST) -> str | None:
    """A string literal, or a ``+`` of them; None for anything else."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _literal(node.left), _literal(node.right)
        if left is not None and right is not None:
            return left + right
    return None


def _call_name(node: ast.Call) -> tuple[str | None, bool]:
    if isinstance(node.func, ast.Name):
        return node.func.id, True
    if isinstance(node.func, ast.Attribute):
        return node.func.attr, False
    return None, False


def _user_error_names(tree: ast.AST) -> set[str]:
    names = set(USER_ERRORS)
    try:
        from framework.core.errors import UserError

        stack: list[type] = [UserError]
        while stack:
            cls = stack.pop()
            names.add(cls.__name__)
            stack.extend(cls.__subclasses__())
    except Exception:  # extraction must work on a broken checkout too
        pass
    changed = True
    classes = [n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)]
    while changed:  # subclasses declared in the file itself
        changed = False
        for cls_node in classes:
            bases = {b.id if isinstance(b, ast.Name) else getattr(b, "attr", "") for b in cls_node.bases}
            if cls_node.name not in names and bases & names:
                names.add(cls_node.name)
                changed = True
    return names


def extract_python(source: str, path: str) -> tuple[list[Found], list[Mistake]]:
    """Marked strings of a Python module, and markers around something else than a literal."""
    try:
        tree = ast.parse(source)
    except SyntaxError as exc:
        return [], [Mistake(path, exc.lineno or 0, f"cannot parse: {exc.msg}")]
    lines = source.splitlines()
    errors = _user_error_names(tree)
    found: list[Found] = []
    mistakes: list[Mistake] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name, bare = _call_name(node)
        if name is None:
            continue
        count = PY_MARKERS.get(name) or (PY_BARE_MARKERS.get(name) if bare else None)
        if count:
            texts = [_literal(a) for a in node.args[:count]]
            if len(node.args) < count or any(t is None for t in texts):
                if _is_dynamic(lines, node.lineno):
                    continue
                what = ", ".join(ast.unparse(a) for a in node.args[:count]) or "nothing"
                mistakes.append(Mistake(
                    path, node.lineno,
                    f"{name}() must wrap a string literal, not {what[:80]}: the extractor cannot "
                    f"see the text, so it would never be translated",
                ))
                continue
            msgid: MsgId = texts[0] if count == 1 else (texts[0], texts[1])  # type: ignore[assignment]
            if msgid:
                found.append(Found(msgid, path, node.lineno, _comment_block(lines, node.lineno)))
            continue
        index = PY_IMPLICIT.get(name, 0 if name in errors else None)
        if index is not None and len(node.args) > index:
            text = _literal(node.args[index])
            if text:
                found.append(Found(text, path, node.lineno, _comment_block(lines, node.lineno)))
    found.sort(key=lambda f: f.line)
    return found, mistakes


def extract_template(source: str, path: str) -> tuple[list[Found], list[Mistake]]:
    """``_("...")``, ``gettext``, ``ngettext`` and ``{% trans %}`` blocks of a Jinja2 template."""
    from jinja2.exceptions import TemplateSyntaxError
    from jinja2.ext import babel_extract

    found: list[Found] = []
    mistakes: list[Mistake] = []
    options = {"extensions": "jinja2.ext.do,jinja2.ext.loopcontrols", "silent": "false",
               "newstyle_gettext": "true"}
    try:
        results = list(babel_extract(io.BytesIO(source.encode("utf-8")), list(TEMPLATE_MARKERS),
                                     [COMMENT_TAG], options))
    except TemplateSyntaxError as exc:
        return [], [Mistake(path, exc.lineno or 0, f"cannot parse: {exc.message}")]
    for lineno, func, message, comments in results:
        count = TEMPLATE_MARKERS.get(func, 1)
        parts = message if isinstance(message, tuple) else (message,)
        texts = list(parts[:count])
        if len(texts) < count or any(not isinstance(t, str) for t in texts):
            if _is_dynamic(source.splitlines(), lineno):
                continue
            mistakes.append(Mistake(path, lineno, f"{func}() must wrap a string literal"))
            continue
        msgid: MsgId = texts[0] if count == 1 else (texts[0], texts[1])  # type: ignore[assignment]
        if msgid:
            tagged = tuple(c if c.startswith(COMMENT_TAG) else f"{COMMENT_TAG} {c}" for c in comments)
            found.append(Found(msgid, path, lineno, tagged))
    return found, mistakes


# JavaScript: Babel finds the messages (``extract_javascript``) and its lexer reads the
# tokens; Arena checks that every marker wraps literals and keeps only Babel's messages of the
# calls that pass. Babel's lexer reads a template literal as one regular expression, which
# ends at the first backtick of a nested one (``${xs.map((x) => `<td>${x}</td>`)}``), so Arena
# reads template literals itself and gives Babel a copy of the file where each one with
# ``${...}`` is replaced by its expressions (on the same lines).
#: Babel's keyword specification of JS_MARKERS (argument numbers from 1).
JS_KEYWORDS = {name: tuple(p + 1 for p in positions) for name, positions in JS_MARKERS.items()}
_JS_OPTIONS = {"jsx": False, "parse_template_string": False}
# dotted=True: ``obj._`` is one name, so only a bare marker matches.
_JS_RULES = _js_rules(jsx=False, dotted=True, template_string=False)


@dataclass(frozen=True)
class _JsCall:
    """A marker called in a JS file: whether its message arguments are all literals."""

    name: str
    line: int
    literal: bool


def _js_lex(source: str, pos: int = 0, line: int = 1,
            nested: bool = False) -> tuple[list[Token], str, int, int]:
    """Babel's tokens from ``pos`` (comments included, the tokens of a template literal's
    ``${...}`` right after it), the text for Babel's extractor, and the position and line
    after; with ``nested``, stops after the ``}`` closing a ``${``."""
    tokens: list[Token] = []
    text: list[str] = []
    may_divide = False
    depth = 0
    while pos < len(source):
        if source[pos] == "`":
            template, inner, copy, pos, end_line = _js_template(source, pos, line)
            tokens += [template, *inner]
            text.append(copy)
            line, may_divide = end_line, True
            continue
        for kind, rule in _JS_RULES:  # noqa: B007 - the kind of the rule that matched
            match = rule.match(source, pos)
            if match is not None:
                break
        else:
            kind = "operator" if may_divide else "regexp"
            match = (division_re if may_divide else regex_re).match(source, pos)
            if match is None:  # not JavaScript: as Babel, skip a character
                text.append(source[pos])
                pos += 1
                continue
        value = match.group()
        if kind == "operator" and value in ("{", "}"):
            if value == "}" and depth == 0 and nested:
                return tokens, "".join(text), match.end(), line
            depth += 1 if value == "{" else -1
        if kind is not None:
            token = Token(kind, value, line)
            may_divide = _js_may_divide(token)
            tokens.append(token)
        text.append(value)
        line += value.count("\n")
        pos = match.end()
    return tokens, "".join(text), pos, line


def _js_template(source: str, pos: int, line: int) -> tuple[Token, list[Token], str, int, int]:
    """The template literal at ``pos``: its token, the tokens of its ``${...}``, the text for
    Babel (the literal itself, or its expressions in parentheses), the position and line after."""
    start_line, j = line, pos + 1
    inner: list[Token] = []
    copy, expressions = ["("], 0
    while j < len(source) and source[j] != "`":
        if source.startswith("${", j):
            tokens, text, j, line = _js_lex(source, j + 2, line, nested=True)
            inner += tokens
            copy.append(("," if expressions else "") + text)
            expressions += 1
            continue
        step = 2 if source[j] == "\\" else 1
        newlines = source.count("\n", j, j + step)
        copy.append("\n" * newlines)
        line += newlines
        j += step
    end = min(j + 1, len(source))
    token = Token("template_string", source[pos:end], start_line)
    return token, inner, ("".join(copy) + ")" if expressions else source[pos:end]), end, line


def _js_calls(tokens: list[Token]) -> Iterator[_JsCall]:
    """Every marker call (not ``obj._()``, not ``function _()``)."""
    tokens = [t for t in tokens if t.type not in ("linecomment", "multilinecomment")]
    for k, tok in enumerate(tokens):
        if tok.type != "name" or tok.value not in JS_MARKERS:
            continue
        if k + 1 >= len(tokens) or (tokens[k + 1].type, tokens[k + 1].value) != ("operator", "("):
            continue
        if k and (tokens[k - 1].type, tokens[k - 1].value) == ("name", "function"):
            continue  # the definition of _() itself
        args: list[list[Token]] = [[]]
        depth = 0
        for t in tokens[k + 2:]:
            if t.type == "operator" and t.value in ("(", "[", "{"):
                depth += 1
            elif t.type == "operator" and t.value in (")", "]", "}"):
                if depth == 0:
                    break
                depth -= 1
            elif (t.type, t.value) == ("operator", ",") and depth == 0:
                args.append([])
                continue
            args[-1].append(t)
        if tok.value == "_" and args == [[]]:
            continue  # _() with no argument: not a message
        literal = all(p < len(args) and _is_js_literal(args[p]) for p in JS_MARKERS[tok.value])
        yield _JsCall(tok.value, tok.lineno, literal)


def _is_js_literal(arg: list[Token]) -> bool:
    """String literals (or template literals without ``${``) joined by ``+``."""
    if len(arg) % 2 == 0:
        return False
    for k, tok in enumerate(arg):
        if k % 2:
            if (tok.type, tok.value) != ("operator", "+"):
                return False
        elif not (tok.type == "string" or (tok.type == "template_string" and "${" not in tok.value)):
            return False
    return True


def extract_javascript(source: str, path: str) -> tuple[list[Found], list[Mistake]]:
    """``_("...")``, ``__("lang_mainsite", "...")`` and ``ngettext`` calls of a JS file
    (Babel's ``extract_javascript``), and the markers around anything but literals."""
    lines = source.splitlines()
    tokens, text, _pos, _line = _js_lex(source)
    calls = list(_js_calls(tokens))
    results = babel_extract_javascript(io.BytesIO(text.encode("utf-8")), JS_KEYWORDS, [COMMENT_TAG],
                                       _JS_OPTIONS)  # type: ignore[arg-type]
    accepted = {(c.line, c.name) for c in calls if c.literal}
    refused = {(c.line, c.name) for c in calls if not c.literal}
    mistakes = [Mistake(path, c.line, f"{c.name}() must wrap a string literal")
                for c in calls if not c.literal and not _is_dynamic(lines, c.line)]
    found: list[Found] = []
    for line, name, messages, comments in results:
        if not isinstance(name, str) or (line, name) not in accepted or (line, name) in refused:
            continue  # a method obj._(), or a call on the line of a refused one
        texts = (messages,) if isinstance(messages, str) else tuple(messages or ())
        picked = [texts[p] if p < len(texts) else None for p in JS_MARKERS[name]]
        ids = [text for text in picked if text is not None]
        if len(ids) < len(picked):
            continue
        msgid: MsgId = ids[0] if len(ids) == 1 else (ids[0], ids[1])
        notes = tuple(str(c) for c in comments or () if str(c).startswith(COMMENT_TAG))
        if msgid:
            found.append(Found(msgid, path, line, notes))
    return found, mistakes


EXTRACTORS = {".py": extract_python, ".html": extract_template, ".js": extract_javascript}


def new_catalog(target: Target, locale: str | None = None) -> Catalog:
    language = ""
    if locale:
        from babel import Locale

        language = Locale.parse(locale).english_name or locale
    return Catalog(
        last_translator="Arena contributors", language_team=language or "LANGUAGE",
        locale=locale, domain=DOMAIN,
        header_comment=(f"# Translations of {target.name} (Arena).\n"
                        "# This file is distributed under the same license as the project."),
        project=target.name, version="1", msgid_bugs_address="", charset="utf-8",
        fuzzy=False,
    )


def extract_messages(target: str | Path | Target) -> Extraction:
    """Every marked string of the target's Python, template and JS files, in memory."""
    tgt = resolve_target(target)
    catalog = new_catalog(tgt)
    result = Extraction(catalog)
    for path in tgt.sources:
        rel = path.relative_to(tgt.base).as_posix()
        found, mistakes = EXTRACTORS[path.suffix](path.read_text(encoding="utf-8"), rel)
        result.files.append(rel)
        result.mistakes.extend(mistakes)
        for item in found:
            existing = catalog.get(item.msgid if isinstance(item.msgid, str) else item.msgid[0])
            if existing is not None and isinstance(existing.id, tuple) and isinstance(item.msgid, str):
                item = Found(existing.id, item.path, item.line, item.comments)
            catalog.add(item.msgid, locations=[(item.path, item.line)], auto_comments=list(item.comments))
    return result

