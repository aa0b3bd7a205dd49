"""A MySQL column definition (``INT UNSIGNED NOT NULL DEFAULT 0``) as a target declares it,
exactly as ``dbmodel.sql`` is translated: for migrations that change a column in place."""

from __future__ import annotations

import functools
from dataclasses import dataclass

from sqlglot import exp

from framework.storage.sql.column_types import Now, render_default, target_type
from framework.storage.sql.errors import SQLError, Target
from framework.storage.sql.parse import parse_prepared, prepare
from framework.storage.sql.schema import column_from_def, give_implicit_default


@dataclass(frozen=True)
class DeclaredColumn:
    """``type``: the target's type text; ``default``: the target's default expression (None:
    no default); ``now``: the default is the current time."""

    type: str
    not_null: bool
    default: str | None
    now: bool = False


@functools.lru_cache(maxsize=512)
def declared_column(definition: str, target: Target) -> DeclaredColumn:
    """What ``dbmodel.sql``'s translation makes of one MySQL column definition on ``target``,
    with MySQL's implicit default for a NOT NULL column as the translation gives it.

    >>> declared_column("INT UNSIGNED NOT NULL DEFAULT '0'", "postgresql")
    DeclaredColumn(type='BIGINT', not_null=True, default='0', now=False)
    >>> declared_column("varchar(255) NOT NULL", "sqlite").default
    "''"

    Raises:
        SQLError: not a column definition, or a type or default the translation refuses.
    """
    tree = parse_prepared(prepare(f"ALTER TABLE `t` ADD `c` {definition}"))
    actions = tree.args.get("actions") if isinstance(tree, exp.Alter) else None
    if not actions or len(actions) != 1 or not isinstance(actions[0], exp.ColumnDef):
        raise SQLError(f"not a column definition: {definition}")
    column = column_from_def(actions[0])
    if column.primary_key or column.auto_increment or column.unique:
        raise SQLError(f"a key or AUTO_INCREMENT cannot be given to an existing column: {definition}")
    give_implicit_default(column, False)
    text = column.dtype.sql("mysql") if target == "mysql" else target_type(column.dtype, target)
    default = None if column.default is None else render_default(column.default, column.dtype, target)
    return DeclaredColumn(text, column.not_null, default, isinstance(column.default, Now))
