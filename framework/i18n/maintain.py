"""Catalog files of a game or of the framework: the ``.pot`` written, each language's ``.po``
updated, ``.mo`` compiled, and the translations checked."""

from __future__ import annotations

import io
import re
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from framework.i18n import (
    DOMAIN,
    SOURCE_LANGUAGE,
    SUPPORTED_LANGUAGES,
    clear_cache,
    placeholders,
    po_path,
)
from framework.i18n.extract import Mistake, Target, extract_messages, new_catalog, resolve_target

# ---------------------------------------------------------------------------- writing
_DATE_LINE = re.compile(rb'^"(POT-Creation-Date|PO-Revision-Date): .*\\n"\n', re.MULTILINE)


def _serialise(catalog: Catalog, template: bool) -> bytes:
    # Babel guesses python-format flags from "{name}"; ours are ${name}, so tools checking
    # Python formats would misread every message.
    for message in list(catalog) + list(catalog.obsolete.values()):
        message.flags -= {"python-format", "python-brace-format"}
    buf = io.BytesIO()
    write_po(buf, catalog, width=100, include_lineno=False, ignore_obsolete=template,
             include_previous=not template, sort_output=False)
    return buf.getvalue()


def _write_if_changed(path: Path, content: bytes) -> bool:
    """Write unless only the dates differ (no churn in git when nothing changed)."""
    if path.exists() and _DATE_LINE.sub(b"", path.read_bytes()) == _DATE_LINE.sub(b"", content):
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content)
    clear_cache()
    return True


@dataclass
class TemplateResult:
    path: Path
    count: int
    changed: bool
    mistakes: list[Mistake]


def write_template(target: str | Path | Target) -> TemplateResult:
    """Extract and write ``translations/messages.pot``."""
    tgt = resolve_target(target)
    extraction = extract_messages(tgt)
    changed = _write_if_changed(tgt.template_path, _serialise(extraction.catalog, template=True))
    return TemplateResult(tgt.template_path, len(extraction.msgids), changed, extraction.mistakes)


def _read(path: Path, locale: str | None = None) -> Catalog:
    with path.open("rb") as fp:
        return read_po(fp, locale=locale, domain=DOMAIN)


def catalog_languages(target: Target, languages: Iterable[str] | None = None) -> list[str]:
    """The languages asked for, else the shipped ones plus any other found on disk."""
    if languages:
        return [lang for lang in languages if lang != SOURCE_LANGUAGE]
    found = {p.parent.parent.name for p in target.directory.glob(f"*/LC_MESSAGES/{DOMAIN}.po")}
    shipped = [lang for lang in SUPPORTED_LANGUAGES if lang != SOURCE_LANGUAGE]
    return shipped + sorted(found - set(shipped))


@dataclass
class UpdateResult:
    lang: str
    path: Path
    created: bool
    changed: bool
    untranslated: int
    fuzzy: int


def _is_translated(message: Message) -> bool:
    if isinstance(message.string, (list, tuple)):
        return bool(message.string) and all(message.string)
    return bool(message.string)


#: The note on a translated string gone from the sources and kept in the catalog, so that
#: the log lines games in progress already wrote with it stay translated.
KEPT_NOTE = "arena: kept for games in progress (no longer in the sources)"


def _key(msgid: str | Sequence[str]) -> str:
    return msgid if isinstance(msgid, str) else msgid[0]


def _stale_template(tgt: Target, template: Catalog) -> list[str]:
    """The strings in which ``messages.pot`` and the sources differ (empty: up to date)."""
    on_disk = {_key(m.id) for m in template if m.id}
    fresh = {_key(m.id) for m in extract_messages(tgt).catalog if m.id}
    return sorted(fresh - on_disk) + sorted(on_disk - fresh)


def _keep_gone(catalog: Catalog, before: dict[str, Message], in_use: Collection[str] | None) -> None:
    """Put back, as ordinary entries noted ``KEPT_NOTE``, the translated strings the update
    dropped or made obsolete (Babel gives a changed string's translation to the new one, as
    fuzzy, and forgets the old): a game in progress still shows them in its log. With
    ``in_use``, only the strings it names are kept; the others become obsolete."""
    for key, old in before.items():
        if catalog.get(old.id) is not None or not _is_translated(old) or old.fuzzy:
            continue
        if in_use is not None and key not in in_use:
            if key not in catalog.obsolete:
                catalog.obsolete[key] = old
            continue
        catalog.obsolete.pop(key, None)
        comments = list(old.auto_comments)
        if KEPT_NOTE not in comments:
            comments.append(KEPT_NOTE)
        catalog.add(old.id, old.string, locations=(), flags=old.flags - {"fuzzy"},
                    auto_comments=comments, user_comments=old.user_comments, context=old.context)


def update_catalogs(
    target: str | Path | Target, languages: Iterable[str] | None = None,
    in_use: Collection[str] | None = None,
) -> list[UpdateResult]:
    """Bring each language's ``.po`` in line with ``messages.pot``: new strings are added,
    translations kept, a changed English string gets its old translation marked fuzzy (not
    used until a translator confirms it). A translated string gone from the sources stays in
    the catalog, noted ``KEPT_NOTE``, so log lines that games in progress wrote with it stay
    translated; ``in_use`` (msgids still shown by games in progress) limits that to those,
    the others being kept as obsolete only.

    Raises:
        UserError: there is no ``messages.pot`` yet, or it is older than the sources (run
            ``arena i18n extract`` first); nothing is written.
    """
    from framework.core.errors import UserError

    tgt = resolve_target(target)
    if not tgt.template_path.exists():
        raise UserError("There is no ${path}: run arena i18n extract first", "no_template",
                        path=str(tgt.template_path))
    template = _read(tgt.template_path)
    stale = _stale_template(tgt, template)
    if stale:
        raise UserError(
            "${path} is out of date: ${count} strings differ from the sources (${first}); "
            "run arena i18n extract ${target} first, then update", "stale_template",
            path=str(tgt.template_path), count=len(stale), first=stale[0], target=tgt.name)
    results = []
    for lang in catalog_languages(tgt, languages):
        path = po_path(tgt.directory, lang)
        created = not path.exists()
        if created:
            catalog = new_catalog(tgt, lang)
            catalog.revision_date = datetime.now(UTC)
        else:
            catalog = _read(path, lang)
        before = {_key(m.id): m for m in catalog if m.id}
        catalog.update(template, no_fuzzy_matching=False, update_header_comment=False)
        _keep_gone(catalog, before, in_use)
        catalog.fuzzy = False
        changed = _write_if_changed(path, _serialise(catalog, template=False))
        messages = [m for m in catalog if m.id]
        results.append(UpdateResult(
            lang, path, created, changed,
            untranslated=sum(1 for m in messages if not _is_translated(m)),
            fuzzy=sum(1 for m in messages if m.fuzzy),
        ))
    return results


@dataclass
class CompileResult:
    lang: str
    path: Path
    translated: int
    skipped: int  # fuzzy or untranslated: English at run time


def compile_catalogs(
    target: str | Path | Target, languages: Iterable[str] | None = None
) -> list[CompileResult]:
    """Write ``.mo`` files next to the ``.po`` files (the translator otherwise compiles a
    ``.po`` in memory on first use); fuzzy entries are left out."""
    tgt = resolve_target(target)
    results = []
    for lang in catalog_languages(tgt, languages):
        path = po_path(tgt.directory, lang)
        if not path.exists():
            continue
        catalog = _read(path, lang)
        mo = path.with_suffix(".mo")
        with mo.open("wb") as fp:
            write_mo(fp, catalog, use_fuzzy=False)
        messages = [m for m in catalog if m.id]
        good = sum(1 for m in messages if _is_translated(m) and not m.fuzzy)
        results.append(CompileResult(lang, mo, good, len(messages) - good))
    clear_cache()
    return results


# ---------------------------------------------------------------------------- checking
def _label(msgid: str | Sequence[str]) -> str:
    return msgid if isinstance(msgid, str) else " | ".join(msgid)


def placeholder_problems(message: Message, num_plurals: int) -> list[str]:
    """What is wrong with a translation's placeholders and plural forms (empty: nothing)."""
    problems: list[str] = []
    if isinstance(message.id, (list, tuple)):
        wanted = set(placeholders(message.id[0])) | set(placeholders(message.id[1]))
        forms = list(message.string) if isinstance(message.string, (list, tuple)) else [message.string]
        if len(forms) != num_plurals:
            problems.append(f"has {len(forms)} plural forms, the language has {num_plurals}")
        used: set[str] = set()
        for form in forms:
            unknown = set(placeholders(form or "")) - wanted
            if unknown:
                problems.append(f"uses unknown placeholders {sorted(unknown)}")
            used |= set(placeholders(form or ""))
        # A form may leave out the number ("un pli"), but nothing else may be dropped.
        lost = wanted - used
        if lost:
            problems.append(f"leaves out placeholders {sorted(lost)}")
        return problems
    wanted = set(placeholders(message.id))
    got = set(placeholders(str(message.string)))
    if got - wanted:
        problems.append(f"uses unknown placeholders {sorted(got - wanted)}")
    if wanted - got:
        problems.append(f"leaves out placeholders {sorted(wanted - got)}")
    return problems


@dataclass
class LanguageReport:
    lang: str
    path: Path
    total: int = 0
    missing_file: bool = False
    untranslated: list[str] = field(default_factory=list)
    fuzzy: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not (self.missing_file or self.untranslated or self.fuzzy or self.errors)


@dataclass
class CheckReport:
    target: str
    languages: list[LanguageReport]
    mistakes: list[Mistake]
    stale_template: list[str]  # strings of the sources that messages.pot lacks: a failure
    unused: list[str] = field(default_factory=list)  # in messages.pot, gone from the sources: a note

    @property
    def ok(self) -> bool:
        return not self.mistakes and not self.stale_template and all(r.ok for r in self.languages)


def check_catalogs(
    target: str | Path | Target, languages: Iterable[str] | None = None
) -> CheckReport:
    """Per language: strings of the sources that are untranslated (or missing from the .po),
    fuzzy (English changed since they were translated), or whose translation has wrong
    placeholders or plural forms. The sources are extracted afresh, so a string added
    without running ``extract``/``update`` is reported too."""
    tgt = resolve_target(target)
    extraction = extract_messages(tgt)
    wanted = [m for m in extraction.catalog if m.id]
    stale: list[str] = []
    unused: list[str] = []
    if tgt.template_path.exists():
        on_disk = {m.id if isinstance(m.id, str) else tuple(m.id) for m in _read(tgt.template_path) if m.id}
        fresh = {m.id if isinstance(m.id, str) else tuple(m.id) for m in wanted}
        stale = [f"not in messages.pot: {_label(i)}" for i in fresh - on_disk]
        unused = sorted(f"in messages.pot but no longer in the sources: {_label(i)}" for i in on_disk - fresh)
    else:
        stale = [f"{tgt.template_path} does not exist"]
    reports = []
    for lang in catalog_languages(tgt, languages):
        path = po_path(tgt.directory, lang)
        report = LanguageReport(lang, path, total=len(wanted))
        reports.append(report)
        if not path.exists():
            report.missing_file = True
            report.untranslated = [_label(m.id) for m in wanted]
            continue
        catalog = _read(path, lang)
        for m in wanted:
            have = catalog.get(m.id)
            if have is None or not _is_translated(have):
                report.untranslated.append(_label(m.id))
            elif have.fuzzy:
                report.fuzzy.append(_label(m.id))
            elif isinstance(m.id, tuple) != isinstance(have.id, (list, tuple)):
                report.errors.append(f"{_label(m.id)}: singular/plural differs from the sources")
            else:
                problems = placeholder_problems(have, catalog.num_plurals)
                report.errors += [f"{_label(m.id)}: {p}" for p in problems]
    return CheckReport(tgt.name, reports, extraction.mistakes, sorted(stale), unused)


def format_check(report: CheckReport, verbose: bool = True) -> str:
    lines = []
    for mistake in report.mistakes:
        lines.append(f"mistake: {mistake}")
    for item in report.stale_template + report.unused:
        lines.append(f"stale template: {item} (run arena i18n extract {report.target})")
    for r in report.languages:
        if r.missing_file:
            lines.append(f"{r.lang}: no catalog {r.path} (run arena i18n update {report.target})")
            continue
        lines.append(f"{r.lang}: {r.total} strings, {len(r.untranslated)} untranslated, "
                     f"{len(r.fuzzy)} fuzzy, {len(r.errors)} with errors")
        if verbose:
            lines += [f"  untranslated: {s}" for s in r.untranslated]
            lines += [f"  fuzzy: {s}" for s in r.fuzzy]
            lines += [f"  error: {s}" for s in r.errors]
    return "\n".join(lines)

