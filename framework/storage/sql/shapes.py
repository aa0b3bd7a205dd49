"""What the translation of a game's statement needs to know of its tables (keys, string
columns, the AUTO_INCREMENT column), as read once from the table database's catalog."""

from __future__ import annotations

import threading
from collections.abc import Iterable
from dataclasses import dataclass, field


@dataclass(frozen=True)
class ColumnShape:
    """One column: its spelling in the catalog, whether MySQL stores it as a string, and (on
    SQLite, where ``UPDATE ... SET c = DEFAULT`` does not exist) its default as SQL text."""

    name: str
    is_string: bool = False
    default_sql: str | None = None


@dataclass(frozen=True)
class TableShape:
    """One table. Names in ``primary_key``, ``unique_keys`` and ``auto_column`` are lower case
    (MySQL's are case-insensitive); ``unique_keys`` holds the primary key first."""

    name: str
    columns: tuple[ColumnShape, ...]
    primary_key: tuple[str, ...] = ()
    unique_keys: tuple[tuple[str, ...], ...] = ()
    auto_column: str | None = None

    def column(self, name: str) -> ColumnShape | None:
        lowered = name.lower()
        return next((c for c in self.columns if c.name.lower() == lowered), None)

    def is_string_column(self, name: str) -> bool:
        column = self.column(name)
        return column is not None and column.is_string


@dataclass(frozen=True, eq=False)
class SchemaShapes:
    """Every table of one database, by lower-case name. Equal schemas are one object
    (:func:`intern_shapes`), compared and hashed by identity (they key the translation cache:
    the translations cached for one table serve every table of the same game, at the cost of
    a pointer's hash per statement)."""

    tables: tuple[TableShape, ...] = ()
    _by_name: dict[str, TableShape] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        self._by_name.update({t.name.lower(): t for t in self.tables})

    def table(self, name: str) -> TableShape | None:
        return self._by_name.get(name.lower())


NO_SHAPES = SchemaShapes()

_interned: dict[tuple[TableShape, ...], SchemaShapes] = {}
_intern_lock = threading.Lock()


def intern_shapes(tables: Iterable[TableShape]) -> SchemaShapes:
    """The one :class:`SchemaShapes` object holding ``tables`` (sorted by name).

    >>> a = intern_shapes([TableShape("t", (ColumnShape("a"),))])
    >>> a is intern_shapes([TableShape("t", (ColumnShape("a"),))])
    True
    """
    key = tuple(sorted(tables, key=lambda t: t.name.lower()))
    with _intern_lock:
        shapes = _interned.get(key)
        if shapes is None:
            if len(_interned) > 10_000:
                _interned.clear()
            shapes = _interned[key] = SchemaShapes(key)
        return shapes
