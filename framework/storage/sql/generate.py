"""Writing a translated tree as SQL for the target, and finishing its parameters."""

from __future__ import annotations

from sqlglot import exp
from sqlglot.errors import ErrorLevel, UnsupportedError

from framework.storage.sql.errors import Target, UnsupportedSQLError
from framework.storage.sql.parse import GENERATE_AS, PLACEHOLDER, ArenaSQLite


def generate(node: exp.Expr, target: Target) -> str:
    try:
        return node.sql(
            dialect=GENERATE_AS[target], identify=True, comments=False,
            unsupported_level=ErrorLevel.RAISE,
        )
    except UnsupportedError as exc:
        message = str(exc).strip().rstrip(".").replace(ArenaSQLite.__name__, "SQLite")
        raise UnsupportedSQLError(message, target, "rewrite the query without it") from exc



def wrap(node: exp.Expr, wrapper: exp.Expr) -> exp.Expr:
    """Put ``wrapper`` where ``node`` is, with ``node`` as its ``this`` (no copy)."""
    node.replace(wrapper)
    wrapper.set("this", node)
    return wrapper



def replace_placeholders(tree: exp.Expr) -> None:
    for placeholder in list(tree.find_all(exp.Placeholder)):
        placeholder.replace(exp.var(PLACEHOLDER))


def finish_params(sql: str, target: Target) -> str:
    if target == "sqlite":
        return sql.replace(PLACEHOLDER, "?")
    return sql.replace("%", "%%").replace(PLACEHOLDER, "%s")

