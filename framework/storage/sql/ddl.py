"""CREATE, ALTER and DROP (tables and indexes) translated for SQLite and PostgreSQL; on MariaDB
run as written, with MySQL's implicit defaults made explicit."""

from __future__ import annotations

from sqlglot import exp
from sqlglot.expressions.datatypes import DType as DT

from framework.storage.sql.column_types import Now, is_now, number_text, render_default, target_type
from framework.storage.sql.ddl_render import (
    column_checks,
    column_sql,
    index_sql,
    on_update_now_sql,
    pg_auto_increment_sql,
    render_condition,
    render_foreign_key,
    sqlite_auto_increment_sql,
)
from framework.storage.sql.errors import SQLError, Target, UnsupportedSQLError
from framework.storage.sql.names import derived_name, quote_identifier, string_literal
from framework.storage.sql.parse import Prepared
from framework.storage.sql.query import translate_query_tree
from framework.storage.sql.schema import (
    Index,
    TableModel,
    check_identifier,
    column_from_def,
    give_implicit_default,
    index_column_name,
    index_columns,
    key_name,
)


def _table_properties(create: exp.Create) -> tuple[int | None, bool, exp.Table | None]:
    """(AUTO_INCREMENT start, TEMPORARY, LIKE source) of a CREATE TABLE; other MySQL table
    options (ENGINE, CHARSET, COLLATE, COMMENT, ROW_FORMAT...) change nothing here."""
    auto_start = None
    temporary = False
    like = None
    properties = create.args.get("properties")
    for prop in properties.expressions if properties else []:
        if isinstance(prop, exp.AutoIncrementProperty):
            number = number_text(prop.this)
            auto_start = int(float(number)) if number else None
        elif isinstance(prop, exp.TemporaryProperty):
            temporary = True
        elif isinstance(prop, exp.LikeProperty):
            like = prop.this
    return auto_start, temporary, like


def copy_table_sql(source: str, copy: str, target: Target) -> str:
    """The statement that makes ``copy`` with the columns of ``source``, empty: a table's
    ``zz_`` copies. MariaDB copies everything (``LIKE``); PostgreSQL the columns, NOT NULL and
    defaults; SQLite the columns with their type's affinity. Names are spelled exactly.

    >>> copy_table_sql("card", "zz_savepoint_card", "postgresql")
    'CREATE TABLE "zz_savepoint_card" (LIKE "card" INCLUDING DEFAULTS)'
    """
    src = quote_identifier(source, target, keep_case=True)
    dst = quote_identifier(copy, target, keep_case=True)
    if target == "sqlite":
        return f"CREATE TABLE {dst} AS SELECT * FROM {src} WHERE 0"
    if target == "postgresql":
        return f"CREATE TABLE {dst} (LIKE {src} INCLUDING DEFAULTS)"
    return f"CREATE TABLE {dst} LIKE {src}"


def create_table(create: exp.Create, target: Target, reserved: frozenset[str],
                  prepared: Prepared) -> list[str]:
    schema = create.this
    name = created_table_name(schema, reserved)
    auto_start, temporary, like = _table_properties(create)
    if_not_exists = bool(create.args.get("exists"))
    query = create.args.get("expression")
    if query is not None or like is not None:
        return _create_table_from(schema, name, query, like, target, prepared,
                                  temporary=temporary, if_not_exists=if_not_exists)

    table = TableModel(name)
    assert isinstance(schema, exp.Schema)
    for item in schema.expressions:
        table.add(item)
    table.finish()
    if target == "mysql":
        if any(c.implicit_default for c in table.columns):
            return [create.sql(dialect="mysql")]
        return [prepared.original]
    return _create_table_sql(table, target, auto_start, temporary=temporary,
                             if_not_exists=if_not_exists)


def created_table_name(schema: exp.Expr, reserved: frozenset[str]) -> str:
    """The name of the table a CREATE TABLE makes, refused if it is a framework table or an
    unquoted reserved word."""
    table_node = schema.this if isinstance(schema, exp.Schema) else schema
    if not isinstance(table_node, exp.Table):
        raise SQLError("CREATE TABLE without a table name")
    check_identifier(table_node.this, "the table name")
    name = table_node.name
    if name.lower() in {r.lower() for r in reserved}:
        raise SQLError(
            f"redefines the framework table `{name}`; add columns with "
            f"ALTER TABLE {name} ADD ..."
        )
    return name


def _create_table_head(name: str, target: Target, *, temporary: bool, if_not_exists: bool) -> str:
    """``CREATE [TEMPORARY] TABLE [IF NOT EXISTS] name``."""
    head = "CREATE " + ("TEMPORARY " if temporary else "") + "TABLE "
    return head + ("IF NOT EXISTS " if if_not_exists else "") + quote_identifier(name, target)


def _create_table_from(schema: exp.Expr, name: str, query: exp.Expr | None, like: exp.Table | None,
                       target: Target, prepared: Prepared, *, temporary: bool,
                       if_not_exists: bool) -> list[str]:
    """CREATE TABLE ... AS SELECT and CREATE TABLE ... LIKE."""
    if isinstance(schema, exp.Schema):
        raise UnsupportedSQLError(
            "CREATE TABLE (columns) AS SELECT", target,
            "create the table, then fill it with INSERT INTO ... SELECT",
        )
    if target == "mysql":
        return [prepared.original]
    head = _create_table_head(name, target, temporary=temporary, if_not_exists=if_not_exists)
    if like is not None:
        if target == "sqlite":
            raise UnsupportedSQLError(
                "CREATE TABLE ... LIKE", target, "write the full CREATE TABLE statement"
            )
        return [f"{head} (LIKE {quote_identifier(like.name, target)} INCLUDING ALL)"]
    assert isinstance(query, exp.Query)
    return [f"{head} AS {translate_query_tree(query, target, output_names=False)}"]


def _create_table_sql(table: TableModel, target: Target, auto_start: int | None, *,
                      temporary: bool, if_not_exists: bool) -> list[str]:
    """The CREATE TABLE of a declared table on SQLite or PostgreSQL, then its indexes,
    AUTO_INCREMENT and ON UPDATE CURRENT_TIMESTAMP machinery."""
    name = table.name
    pk_lower = table.primary_key_lower()
    auto = next((c for c in table.columns if c.auto_increment), None)
    inline_pk = (
        target == "sqlite" and auto is not None and pk_lower == {auto.name.lower()}
    )
    lines = []
    for column in table.columns:
        if target == "sqlite" and column.name.lower() in pk_lower and not column.auto_increment:
            column.not_null = True  # SQLite allows NULL in primary keys; MySQL does not
        lines.append(column_sql(column, name, target, inline_pk=inline_pk and column is auto,
                                 auto_start=auto_start))
    if table.primary_key and not inline_pk:
        keys = ", ".join(quote_identifier(k, target) for k in table.primary_key)
        lines.append(f"PRIMARY KEY ({keys})")
    for fk_name, fk in table.foreign_keys:
        lines.append(render_foreign_key(fk_name, fk, target))
    for check in table.checks:
        lines.append(f"CHECK ({render_condition(check, target)})")
    head = _create_table_head(name, target, temporary=temporary, if_not_exists=if_not_exists)
    out = [head + " (\n  " + ",\n  ".join(lines) + "\n)"]
    taken: set[str] = set()
    for index in table.indexes:
        out.append(index_sql(name, index, target, if_not_exists=if_not_exists, taken=taken))
    if auto is not None:
        out.extend(_auto_increment_sql(name, auto.name, target, inline_pk, auto_start))
    for column in table.columns:
        if column.on_update_now:
            out.extend(on_update_now_sql(name, column.name, target))
    return out


def _auto_increment_sql(table: str, column: str, target: Target, inline_pk: bool,
                        auto_start: int | None) -> list[str]:
    """What keeps an AUTO_INCREMENT column counting: a sequence on PostgreSQL, a trigger on
    SQLite unless the column is the INTEGER PRIMARY KEY (then only its start is seeded)."""
    if target == "postgresql":
        return pg_auto_increment_sql(table, column)
    if not inline_pk:
        return sqlite_auto_increment_sql(table, column)
    if auto_start and auto_start > 1:
        return [
            f"INSERT INTO sqlite_sequence (name, seq) SELECT {string_literal(table)}, "
            f"{auto_start - 1} WHERE NOT EXISTS "
            f"(SELECT 1 FROM sqlite_sequence WHERE name = {string_literal(table)})"
        ]
    return []


def _add_column(table: str, coldef: exp.ColumnDef, target: Target) -> list[str]:
    column = column_from_def(coldef)
    give_implicit_default(column, False)
    qt = quote_identifier(table, target)
    if target == "sqlite":
        if column.primary_key or column.auto_increment:
            raise UnsupportedSQLError(
                "ALTER TABLE ... ADD a PRIMARY KEY or AUTO_INCREMENT column", target,
                "declare it in the CREATE TABLE statement",
            )
        if isinstance(column.default, Now):
            raise UnsupportedSQLError(
                "ALTER TABLE ... ADD a column with DEFAULT CURRENT_TIMESTAMP", target,
                "add it with DEFAULT NULL and set the value in an UPDATE",
            )
        if coldef.args.get("exists"):
            raise UnsupportedSQLError(
                "ADD COLUMN IF NOT EXISTS", target, "check the columns before altering the table"
            )
    exists = "IF NOT EXISTS " if coldef.args.get("exists") else ""
    out = [f"ALTER TABLE {qt} ADD COLUMN {exists}"
           + column_sql(column, table, target, inline_pk=False, auto_start=None)]
    if column.primary_key:
        out.append(f"ALTER TABLE {qt} ADD PRIMARY KEY ({quote_identifier(column.name, target)})")
    if column.unique:
        out.append(index_sql(table, Index(column.name, [exp.column(column.name)], True), target,
                              if_not_exists=False))
    if column.auto_increment:
        out.extend(pg_auto_increment_sql(table, column.name))
    if column.on_update_now:
        out.extend(on_update_now_sql(table, column.name, target))
    return out


def _modify_column(table: str, action: exp.ModifyColumn, target: Target) -> list[str]:
    if target == "sqlite":
        raise UnsupportedSQLError(
            "ALTER TABLE ... MODIFY/CHANGE", target,
            "SQLite cannot change a column's definition; add a new column, copy the values with "
            "UPDATE, and drop the old one",
        )
    coldef = action.this
    assert isinstance(coldef, exp.ColumnDef)
    column = column_from_def(coldef)
    give_implicit_default(column, False)
    if column.auto_increment or column.primary_key or column.unique or column.on_update_now:
        raise UnsupportedSQLError(
            "ALTER TABLE ... MODIFY with AUTO_INCREMENT, PRIMARY KEY, UNIQUE or ON UPDATE", target,
            "add a new column (and an index) instead",
        )
    qt = quote_identifier(table, target)
    out = []
    rename_from = action.args.get("rename_from")
    if rename_from is not None and rename_from.name.lower() != column.name.lower():
        out.append(f"ALTER TABLE {qt} RENAME COLUMN {quote_identifier(rename_from.name, target)} "
                   f"TO {quote_identifier(column.name, target)}")
    qc = quote_identifier(column.name, target)
    new_type = target_type(column.dtype, target)
    check_name = quote_identifier(derived_name(table, column.name, "check"), target)
    parts = [
        f"DROP CONSTRAINT IF EXISTS {check_name}",
        f"ALTER COLUMN {qc} TYPE {new_type} USING {qc}::{new_type}",
        f"ALTER COLUMN {qc} {'SET' if column.not_null else 'DROP'} NOT NULL",
    ]
    if column.default is not None:
        parts.append(f"ALTER COLUMN {qc} SET DEFAULT "
                     + render_default(column.default, column.dtype, target))
    else:
        parts.append(f"ALTER COLUMN {qc} DROP DEFAULT")
    checks = column_checks(column, target)
    if checks:
        parts.append(f"ADD CONSTRAINT {check_name} CHECK ("
                     + ") AND (".join(checks) + ")")
    out.append(f"ALTER TABLE {qt} " + ", ".join(parts))
    return out


def alter_table(alter: exp.Alter, target: Target, prepared: Prepared) -> list[str]:
    table_node = alter.this
    if str(alter.args.get("kind") or "TABLE").upper() != "TABLE" or not isinstance(
        table_node, exp.Table
    ):
        raise UnsupportedSQLError(f"ALTER {alter.args.get('kind')}", target, "alter tables only")
    table = table_node.name
    actions = list(alter.args.get("actions") or [])
    options = list(alter.args.get("options") or [])
    if target == "mysql":
        return [_alter_table_mysql(alter, actions, prepared)]
    for option in options:
        if isinstance(option, exp.AutoIncrementProperty):
            raise UnsupportedSQLError(
                "ALTER TABLE ... AUTO_INCREMENT=", target,
                "the counter already moves past the highest id inserted",
            )
        # ENGINE=, CHARSET=... change nothing here
    out: list[str] = []
    for action in actions:
        out.extend(_alter_action(table, action, target))
    return out


def _alter_table_mysql(alter: exp.Alter, actions: list[exp.Expr], prepared: Prepared) -> str:
    """The ALTER TABLE for MariaDB: as written, unless an added or modified column needs its
    implicit default made explicit."""
    modified = False
    for action in actions:
        if isinstance(action, exp.ModifyColumn) and isinstance(action.this, exp.ColumnDef):
            action = action.this  # MODIFY too: as dbmodel.sql's CREATE TABLE would declare it
        if isinstance(action, exp.ColumnDef):
            column = column_from_def(action)
            give_implicit_default(column, False)
            modified = modified or column.implicit_default
    return alter.sql(dialect="mysql") if modified else prepared.original


def _alter_action(table: str, action: exp.Expr, target: Target) -> list[str]:
    """The statements for one action of an ALTER TABLE on SQLite or PostgreSQL."""
    qt = quote_identifier(table, target)
    if isinstance(action, exp.ColumnDef):
        return _add_column(table, action, target)
    if isinstance(action, exp.AddConstraint):
        return [sql for item in action.expressions for sql in _add_constraint(table, item, target)]
    if isinstance(action, exp.Drop):
        return _drop_from_table(table, action, target)
    if isinstance(action, exp.DropPrimaryKey):
        if target == "sqlite":
            raise UnsupportedSQLError("ALTER TABLE ... DROP PRIMARY KEY", target,
                                      "recreate the table")
        return [f"ALTER TABLE {qt} DROP CONSTRAINT {quote_identifier(table + '_pkey', target)}"]
    if isinstance(action, exp.ModifyColumn):
        return _modify_column(table, action, target)
    if isinstance(action, exp.RenameColumn):
        old, new = action.this, action.args.get("to")
        assert old is not None and new is not None
        return [f"ALTER TABLE {qt} RENAME COLUMN {quote_identifier(old.name, target)} "
                f"TO {quote_identifier(new.name, target)}"]
    if isinstance(action, exp.AlterRename):
        return [f"ALTER TABLE {qt} RENAME TO {quote_identifier(action.this.name, target)}"]
    if isinstance(action, exp.AlterColumn):
        return [_alter_column(table, action, target)]
    raise UnsupportedSQLError(f"ALTER TABLE ... {action.sql('mysql')}", target,
                              "use ADD, DROP, RENAME or MODIFY")


def _drop_from_table(table: str, action: exp.Drop, target: Target) -> list[str]:
    """ALTER TABLE ... DROP COLUMN / DROP INDEX (several names at once)."""
    qt = quote_identifier(table, target)
    kind = str(action.args.get("kind") or "").upper()
    out: list[str] = []
    for dropped in action.args.get("tables") or []:
        if kind == "COLUMN":
            out.append(f"ALTER TABLE {qt} DROP COLUMN {quote_identifier(dropped.name, target)}")
        elif kind == "INDEX":
            out.append(f"DROP INDEX {quote_identifier(derived_name(table, dropped.name), target)}")
        else:
            raise UnsupportedSQLError(f"ALTER TABLE ... DROP {kind}", target,
                                      "drop columns or indexes only")
    return out


def _alter_column(table: str, action: exp.AlterColumn, target: Target) -> str:
    if target == "sqlite":
        raise UnsupportedSQLError("ALTER TABLE ... ALTER COLUMN", target,
                                  "SQLite cannot change a column's default")
    qc = quote_identifier(action.name, target)
    if action.args.get("drop"):
        return f"ALTER TABLE {quote_identifier(table, target)} ALTER COLUMN {qc} DROP DEFAULT"
    default = action.args.get("default")
    if default is None:
        raise UnsupportedSQLError(f"ALTER TABLE ... {action.sql('mysql')}", target,
                                  "use SET DEFAULT or DROP DEFAULT")
    number = number_text(default)
    if is_now(default):
        value = render_default(Now(), exp.DataType(this=DT.DATETIME), target)
    elif isinstance(default, exp.Null):
        value = "NULL"
    elif isinstance(default, exp.Literal) and default.is_string:
        value = string_literal(str(default.this))
    elif number is not None:
        value = number
    else:
        raise SQLError(f"unsupported default {default.sql('mysql')}")
    return f"ALTER TABLE {quote_identifier(table, target)} ALTER COLUMN {qc} SET DEFAULT {value}"


def _add_constraint(table: str, item: exp.Expr, target: Target,
                    name: str | None = None) -> list[str]:
    qt = quote_identifier(table, target)
    if isinstance(item, exp.Constraint):
        out: list[str] = []
        for inner in item.expressions:
            out.extend(_add_constraint(table, inner, target, item.name or None))
        return out
    if isinstance(item, exp.UniqueColumnConstraint):
        index = Index(key_name(item.this) or name, index_columns(item), True)
        return [index_sql(table, index, target, if_not_exists=False)]
    if isinstance(item, exp.IndexColumnConstraint):
        if str(item.args.get("kind") or "").upper() in ("FULLTEXT", "SPATIAL"):
            return []
        index = Index(key_name(item.this), index_columns(item), False)
        return [index_sql(table, index, target, if_not_exists=False)]
    if target == "sqlite":
        raise UnsupportedSQLError(
            f"ALTER TABLE ... ADD {item.key.upper()}", target,
            "declare primary keys, foreign keys and checks in the CREATE TABLE statement",
        )
    if isinstance(item, exp.PrimaryKey):
        columns = ", ".join(quote_identifier(index_column_name(c)[0], target) for c in item.expressions)
        return [f"ALTER TABLE {qt} ADD PRIMARY KEY ({columns})"]
    if isinstance(item, exp.ForeignKey):
        return [f"ALTER TABLE {qt} ADD {render_foreign_key(name, item, target)}"]
    if isinstance(item, exp.CheckColumnConstraint):
        return [f"ALTER TABLE {qt} ADD CHECK ({render_condition(item.this, target)})"]
    raise UnsupportedSQLError(f"ALTER TABLE ... ADD {item.sql('mysql')}", target,
                              "add columns, keys and indexes only")


def create_index(create: exp.Create, target: Target, prepared: Prepared) -> list[str]:
    index = create.this
    assert isinstance(index, exp.Index)
    table = index.args.get("table")
    params = index.args.get("params")
    if not isinstance(table, exp.Table) or params is None:
        raise SQLError("CREATE INDEX needs ON <table> (<columns>)")
    if target == "mysql":
        return [prepared.original]
    spec = Index(index.name or None, list(params.args.get("columns") or []),
                  bool(create.args.get("unique")))
    return [index_sql(table.name, spec, target, if_not_exists=bool(create.args.get("exists")))]


def drop_statement(drop: exp.Drop, target: Target, reserved: frozenset[str],
          prepared: Prepared) -> list[str]:
    kind = str(drop.args.get("kind") or "").upper()
    tables = list(drop.args.get("tables") or [])
    if kind == "TABLE":
        for table in tables:
            if table.name.lower() in {r.lower() for r in reserved}:
                raise SQLError(f"drops the framework table `{table.name}`")
        if target == "mysql":
            return [prepared.original]
        exists = "IF EXISTS " if drop.args.get("exists") else ""
        return [f"DROP TABLE {exists}{quote_identifier(t.name, target)}" for t in tables]
    if kind == "INDEX":
        on = drop.args.get("cluster")
        table = on.this if isinstance(on, exp.OnProperty) else None
        if not isinstance(table, exp.Table):
            raise SQLError("DROP INDEX needs ON <table>")
        if target == "mysql":
            return [prepared.original]
        exists = "IF EXISTS " if drop.args.get("exists") else ""
        return [f"DROP INDEX {exists}{quote_identifier(derived_name(table.name, t.name), target)}"
                for t in tables]
    raise UnsupportedSQLError(f"DROP {kind}", target, "drop tables and indexes only")

