"""What a CREATE TABLE (or an ADD COLUMN) declares: columns, keys, indexes, checks."""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlglot import exp
from sqlglot.expressions.datatypes import DType as DT

from framework.storage.sql.column_types import implicit_default, is_now, normalize_default, type_kind
from framework.storage.sql.errors import SQLError
from framework.storage.sql.reserved_words import is_reserved_word


@dataclass
class Column:
    name: str
    dtype: exp.DataType
    source: exp.ColumnDef
    not_null: bool = False
    default: exp.Expr | None = None
    auto_increment: bool = False
    primary_key: bool = False
    unique: bool = False
    on_update_now: bool = False
    checks: list[exp.Expr] = field(default_factory=list)
    reference: exp.Reference | None = None
    implicit_default: bool = False


@dataclass
class Index:
    name: str | None
    columns: list[exp.Expr]
    unique: bool


_DROPPED_COLUMN_OPTIONS = (
    exp.CommentColumnConstraint, exp.CharacterSetColumnConstraint, exp.CollateColumnConstraint,
    exp.ZeroFillColumnConstraint, exp.BinaryColumnConstraint, exp.InvisibleColumnConstraint,
)


def check_identifier(node: exp.Expr | None, what: str) -> None:
    """Refuse an unquoted reserved word as a name, as MariaDB does.

    Raises:
        SQLError: ``node`` is an unquoted identifier MariaDB reserves.
    """
    if node is None:
        return
    if isinstance(node, exp.Identifier):
        if node.args.get("quoted") or not is_reserved_word(node.name):
            return
        word = node.name
    else:  # a keyword the parser read as a value (CURRENT_DATE, TRUE, NULL...)
        word = node.sql("mysql").lower().removesuffix("()")
    raise SQLError(
        f"{what} `{word}` is a reserved word in MySQL and MariaDB, which refuse it unquoted: "
        f"write it `{word}` (with backticks)"
    )


def column_from_def(coldef: exp.ColumnDef) -> Column:
    """What one column definition declares.

    Raises:
        SQLError: a column MariaDB refuses (a reserved word as its unquoted name, a VARCHAR
            without length) or an option Arena does not translate.
    """
    kind = coldef.args.get("kind")
    check_identifier(coldef.this, "the column name")
    if not isinstance(kind, exp.DataType):
        raise SQLError(f"column `{coldef.name}` has no type")
    if kind.this in (DT.VARCHAR, DT.NVARCHAR) and not kind.expressions:
        raise SQLError("VARCHAR needs a length, e.g. VARCHAR(32)")  # MariaDB refuses it too
    column = Column(name=coldef.name, dtype=kind, source=coldef)
    if kind.this == DT.SERIAL:  # MySQL: BIGINT UNSIGNED NOT NULL AUTO_INCREMENT UNIQUE
        column.dtype = exp.DataType(this=DT.UBIGINT)
        column.not_null = column.auto_increment = column.unique = True
    for constraint in coldef.constraints:
        _apply_column_option(column, constraint)
    if column.default is not None:
        column.default = normalize_default(column.default, column.dtype, column.name)
    if column.on_update_now and type_kind(column.dtype) != "datetime":
        raise SQLError(f"column `{column.name}`: ON UPDATE CURRENT_TIMESTAMP on a non-date column")
    return column


def _apply_column_option(column: Column, constraint: exp.ColumnConstraint) -> None:
    """Record one option of a column definition (NOT NULL, DEFAULT, AUTO_INCREMENT...)."""
    option = constraint.args.get("kind")
    if isinstance(option, exp.NotNullColumnConstraint):
        column.not_null = not option.args.get("allow_null")
    elif isinstance(option, exp.DefaultColumnConstraint):
        column.default = option.this
    elif isinstance(option, exp.AutoIncrementColumnConstraint):
        column.auto_increment = True
    elif isinstance(option, exp.PrimaryKeyColumnConstraint):
        column.primary_key = True
    elif isinstance(option, exp.UniqueColumnConstraint):
        column.unique = True
    elif isinstance(option, exp.OnUpdateColumnConstraint):
        if not is_now(option.this):
            raise SQLError(
                f"column `{column.name}`: only ON UPDATE CURRENT_TIMESTAMP is supported"
            )
        column.on_update_now = True
    elif isinstance(option, exp.CheckColumnConstraint):
        column.checks.append(option.this)
    elif isinstance(option, exp.Reference):
        column.reference = option
    elif not isinstance(option, _DROPPED_COLUMN_OPTIONS):
        name = option.key.upper() if option is not None else constraint.sql("mysql")
        raise SQLError(f"column `{column.name}`: unsupported column option {name}")


def give_implicit_default(column: Column, in_primary_key: bool) -> None:
    if column.not_null and column.default is None and not column.auto_increment and not (
        in_primary_key or column.primary_key
    ):
        implicit = implicit_default(column.dtype)
        if implicit is not None:
            column.default = implicit
            column.implicit_default = True
            # also in the parsed statement, which is what MariaDB gets
            column.source.append(
                "constraints",
                exp.ColumnConstraint(kind=exp.DefaultColumnConstraint(this=implicit.copy())),
            )


def index_column_name(node: exp.Expr) -> tuple[str, bool]:
    """(column name, descending) of one column of a KEY/INDEX (a prefix length is dropped)."""
    desc = False
    if isinstance(node, exp.Ordered):
        desc = bool(node.args.get("desc"))
        node = node.this
    if isinstance(node, exp.ColumnPrefix):
        node = node.this
    if isinstance(node, exp.Anonymous) and len(node.expressions) == 1:
        return node.name, desc  # CREATE INDEX i ON t (name(10)): a prefix length
    if isinstance(node, (exp.Column, exp.Identifier)):
        return node.name, desc
    raise SQLError(f"unsupported index column {node.sql('mysql')}")


def key_name(node: exp.Expr | None) -> str | None:
    if node is None:
        return None
    if isinstance(node, exp.Schema):
        return key_name(node.this)
    return node.name or None


def index_columns(node: exp.Expr) -> list[exp.Expr]:
    if isinstance(node, exp.UniqueColumnConstraint):
        schema = node.this
        return list(schema.expressions) if isinstance(schema, exp.Schema) else []
    return list(node.expressions)


class TableModel:
    """What a CREATE TABLE declares."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.columns: list[Column] = []
        self.primary_key: list[str] = []
        self.indexes: list[Index] = []
        self.foreign_keys: list[tuple[str | None, exp.ForeignKey]] = []
        self.checks: list[exp.Expr] = []

    def add(self, item: exp.Expr, name: str | None = None) -> None:
        if isinstance(item, exp.ColumnDef):
            self.columns.append(column_from_def(item))
        elif isinstance(item, exp.Constraint):
            for inner in item.expressions:
                self.add(inner, item.name or None)
        elif isinstance(item, exp.PrimaryKey):
            if self.primary_key:
                raise SQLError("multiple primary keys defined")
            self.primary_key = [index_column_name(c)[0] for c in item.expressions]
        elif isinstance(item, exp.UniqueColumnConstraint):
            self.indexes.append(Index(key_name(item.this) or name, index_columns(item), True))
        elif isinstance(item, exp.IndexColumnConstraint):
            if str(item.args.get("kind") or "").upper() in ("FULLTEXT", "SPATIAL"):
                return  # only serve MATCH ... AGAINST / spatial functions, which Arena refuses
            self.indexes.append(Index(key_name(item.this), index_columns(item), False))
        elif isinstance(item, exp.ForeignKey):
            self.foreign_keys.append((name, item))
        elif isinstance(item, exp.CheckColumnConstraint):
            self.checks.append(item.this)
        else:
            raise SQLError(f"unsupported table element {item.sql('mysql')}")

    def finish(self) -> None:
        inline = [c.name for c in self.columns if c.primary_key]
        if inline:
            if self.primary_key or len(inline) > 1:
                raise SQLError("multiple primary keys defined")
            self.primary_key = inline
        names = {c.name.lower() for c in self.columns}
        for key in self.primary_key:
            if key.lower() not in names:
                raise SQLError(f"primary key column `{key}` does not exist")
        autos = [c for c in self.columns if c.auto_increment]
        if len(autos) > 1:
            raise SQLError("there can be only one AUTO_INCREMENT column")
        for column in self.columns:
            give_implicit_default(column, column.name.lower() in self.primary_key_lower())
        for column in self.columns:
            if column.unique:
                self.indexes.append(Index(column.name, [exp.column(column.name)], True))

    def primary_key_lower(self) -> set[str]:
        return {k.lower() for k in self.primary_key}

