"""Deprecated: the SQL layer is ``framework.storage.sql``; these names stay until
``framework/engine/runtime.py`` imports them from there."""

from __future__ import annotations

from framework.storage.sql.errors import TARGETS, SchemaError, SQLError, Target, UnsupportedSQLError
from framework.storage.sql.names import quote_identifier
from framework.storage.sql.split import SourceStatement, split_statements
from framework.storage.sql.translate import (
    DEFAULT_RESERVED_TABLES,
    translate_dbmodel,
    translate_query,
    translate_statements,
)

__all__ = [
    "DEFAULT_RESERVED_TABLES", "TARGETS", "SQLError", "SchemaError", "SourceStatement", "Target",
    "UnsupportedSQLError", "quote_identifier", "split_statements", "translate_dbmodel",
    "translate_query", "translate_statements",
]
