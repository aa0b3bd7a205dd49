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


# JavaScript: a small tokenizer (strings, template literals, comments, regex literals) is
# enough to find calls and check that their message arguments are literals.
_JS_PUNCT_BEFORE_REGEX = set("(,=:[!&|?{};+-*%<>~^") | {"return", "typeof", "case", "do", "else",
                                                        "in", "of", "new", "delete", "void", "throw"}
_JS_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0"}


@dataclass(frozen=True)
class _Tok:
    kind: str  # name, string, template, punct, comment, other
    value: str
    line: int


def _js_tokens(source: str) -> list[_Tok]:
    tokens, _end, _line = _scan_js(source, 0, 1, nested=False)
    return tokens


def _scan_js(source: str, i: int, line: int, nested: bool) -> tuple[list[_Tok], int, int]:
    """Tokens from ``i``; with ``nested``, stop at the ``}`` closing a template's ``${``.
    Returns (tokens, index after the stop, line)."""
    out: list[_Tok] = []
    n = len(source)
    prev = ""
    braces = 0
    while i < n:
        c = source[i]
        if c == "\n":
            line += 1
            i += 1
            continue
        if c.isspace():
            i += 1
            continue
        if source.startswith("//", i):
            end = source.find("\n", i)
            end = n if end < 0 else end
            out.append(_Tok("comment", source[i + 2:end].strip(), line))
            i = end
            continue
        if source.startswith("/*", i):
            end = source.find("*/", i + 2)
            end = n if end < 0 else end + 2
            text = source[i:end]
            out.append(_Tok("comment", text[2:-2].strip(" *\n"), line))
            line += text.count("\n")
            i = end
            continue
        if c in "'\"":
            j = i + 1
            while j < n and source[j] != c and source[j] != "\n":
                j += 2 if source[j] == "\\" else 1
            out.append(_Tok("string", source[i:j + 1], line))
            i = j + 1
            prev = "x"
            continue
        if c == "`":
            j, start_line, inner = i + 1, line, []
            while j < n and source[j] != "`":
                if source[j] == "\\":
                    j += 2
                    continue
                if source[j] == "\n":
                    line += 1
                if source.startswith("${", j):
                    sub, j, line = _scan_js(source, j + 2, line, nested=True)
                    inner.extend(sub)
                    continue
                j += 1
            out.append(_Tok("template", source[i:j + 1], start_line))
            out.extend(inner)  # calls inside ${...} are calls too
            i = j + 1
            prev = "x"
            continue
        if c == "/" and (prev == "" or prev in _JS_PUNCT_BEFORE_REGEX):
            j, in_class = i + 1, False
            while j < n and source[j] != "\n":
                if source[j] == "\\":
                    j += 2
                    continue
                if source[j] == "[":
                    in_class = True
                elif source[j] == "]":
                    in_class = False
                elif source[j] == "/" and not in_class:
                    break
                j += 1
            j += 1
            while j < n and source[j].isalpha():
                j += 1
            out.append(_Tok("other", source[i:j], line))
            i = j
            prev = "x"
            continue
        if c.isalpha() or c in "_$":
            j = i
            while j < n and (source[j].isalnum() or source[j] in "_$"):
                j += 1
            word = source[i:j]
            out.append(_Tok("name", word, line))
            prev = word if word in _JS_PUNCT_BEFORE_REGEX else "x"
            i = j
            continue
        if c.isdigit():
            j = i
            while j < n and (source[j].isalnum() or source[j] in "._"):
                j += 1
            out.append(_Tok("other", source[i:j], line))
            prev = "x"
            i = j
            continue
        if nested and c == "}" and braces == 0:
            return out, i + 1, line
        braces += {"{": 1, "}": -1}.get(c, 0)
        out.append(_Tok("punct", c, line))
        prev = c if c not in ")]}" else "x"
        i += 1
    return out, i, line


def _js_unquote(token: str) -> str:
    body = token[1:-1]
    out: list[str] = []
    i = 0
    while i < len(body):
        c = body[i]
        if c != "\\":
            out.append(c)
            i += 1
            continue
        nxt = body[i + 1] if i + 1 < len(body) else ""
        if nxt == "u" and body[i + 2:i + 3] == "{":
            end = body.index("}", i)
            out.append(chr(int(body[i + 3:end], 16)))
            i = end + 1
        elif nxt == "u":
            out.append(chr(int(body[i + 2:i + 6], 16)))
            i += 6
        elif nxt == "x":
            out.append(chr(int(body[i + 2:i + 4], 16)))
            i += 4
        elif nxt == "\n":
            i += 2
        else:
            out.append(_JS_ESCAPES.get(nxt, nxt))
            i += 2
    return "".join(out)


def _js_literal(tokens: list[_Tok]) -> str | None:
    """The text of an argument made of string literals joined by ``+``; None otherwise."""
    if not tokens or len(tokens) % 2 == 0:
        return None
    parts: list[str] = []
    for k, tok in enumerate(tokens):
        if k % 2:
            if (tok.kind, tok.value) != ("punct", "+"):
                return None
        elif tok.kind == "string":
            parts.append(_js_unquote(tok.value))
        elif tok.kind == "template" and "${" not in tok.value:
            parts.append(_js_unquote(tok.value))
        else:
            return None
    return "".join(parts)


def extract_javascript(source: str, path: str) -> tuple[list[Found], list[Mistake]]:
    """``_("...")``, ``__("lang_mainsite", "...")`` and ``ngettext`` calls of a JS file."""
    tokens = _js_tokens(source)
    lines = source.splitlines()
    found: list[Found] = []
    mistakes: list[Mistake] = []
    for k, tok in enumerate(tokens):
        if tok.kind != "name" or tok.value not in JS_MARKERS:
            continue
        if k + 1 >= len(tokens) or (tokens[k + 1].kind, tokens[k + 1].value) != ("punct", "("):
            continue
        if k and (tokens[k - 1].kind, tokens[k - 1].value) == ("punct", "."):
            continue  # obj._(...) is some other method
        if k and tokens[k - 1].kind == "name" and tokens[k - 1].value == "function":
            continue  # the definition of _() itself
        args: list[list[_Tok]] = [[]]
        depth = 0
        for t in tokens[k + 2:]:
            if t.kind == "comment":
                continue
            if t.kind == "punct" and t.value in "([{":
                depth += 1
            elif t.kind == "punct" and t.value in ")]}":
                if depth == 0:
                    break
                depth -= 1
            elif t.kind == "punct" and t.value == "," and depth == 0:
                args.append([])
                continue
            args[-1].append(t)
        positions = JS_MARKERS[tok.value]
        texts = [_js_literal(args[p]) if p < len(args) else None for p in positions]
        if tok.value == "_" and len(args) == 1 and not args[0]:
            continue  # _() with no argument: not a message
        if any(t is None for t in texts):
            if _is_dynamic(lines, tok.line):
                continue
            mistakes.append(Mistake(path, tok.line, f"{tok.value}() must wrap a string literal"))
            continue
        comments: tuple[str, ...] = ()
        if k and tokens[k - 1].kind == "comment":
            comments = tuple(c for c in (tokens[k - 1].value,) if c.startswith(COMMENT_TAG))
        else:
            before = [t for t in tokens[max(0, k - 12):k] if t.kind == "comment" and t.line >= tok.line - 1]
            comments = tuple(c.value for c in before if c.value.startswith(COMMENT_TAG))
        msgid: MsgId = texts[0] if len(texts) == 1 else (texts[0], texts[1])  # type: ignore[assignment]
        if msgid:
            found.append(Found(msgid, path, tok.line, comments))
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

