"""Translating a parsed query (or a CHECK condition) for SQLite or PostgreSQL."""

from __future__ import annotations

from collections.abc import Callable

from sqlglot import exp

from framework.storage.sql.booleans import bridge_booleans
from framework.storage.sql.dml import transform_statement
from framework.storage.sql.errors import Target
from framework.storage.sql.functions import check_policy, map_functions
from framework.storage.sql.generate import generate, replace_placeholders
from framework.storage.sql.output_names import inline_aliases_pg, lowercase_identifiers, name_outputs
from framework.storage.sql.parse import Prepared


def transform_expressions(tree: exp.Expr, target: Target) -> None:
    """Expression-level rewrites (also used for CHECK conditions)."""
    map_functions(tree, target)
    if target == "postgresql":
        inline_aliases_pg(tree)
        bridge_booleans(tree)
        lowercase_identifiers(tree)


def translate_query_tree(tree: exp.Expr, target: Target, *, output_names: bool,
                          prepared: Prepared | None = None,
                          after_statement: Callable[[exp.Expr], None] | None = None) -> str:
    """``tree`` (a DML statement) written for ``target``; ``after_statement`` sees the tree
    once its statement-level rewrites are done (before the expressions are)."""
    check_policy(tree, target)
    transform_statement(tree, target, prepared or Prepared(original="", text=""))
    if after_statement is not None:
        after_statement(tree)
    if output_names:
        name_outputs(tree, target, prepared.text if prepared is not None else "")
    transform_expressions(tree, target)
    replace_placeholders(tree)
    return generate(tree, target)


