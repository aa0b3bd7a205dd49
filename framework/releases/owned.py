"""SQLAlchemy over a table's own transaction: what Alembic's operations and schema reflection
run on, without ending the transaction the runtime or the upgrade holds."""

from __future__ import annotations

from typing import Any


class OwnedTransaction:
    """A DB-API connection whose ``commit``/``rollback`` do nothing: the caller owns the
    transaction, and SQLAlchemy's own bookkeeping (which rolls back when its connection is
    closed) must not end it."""

    def __init__(self, raw: Any) -> None:
        self._raw = raw

    def commit(self) -> None:
        pass

    def rollback(self) -> None:
        pass

    def close(self) -> None:
        pass

    def __getattr__(self, name: str) -> Any:
        return getattr(self._raw, name)


def owned_engine_options(dialect: str) -> dict[str, Any]:
    """``create_engine`` options for an engine over an ``OwnedTransaction``: psycopg's
    dialect would otherwise look up hstore with the real connection class."""
    return {"use_native_hstore": False} if dialect == "postgresql" else {}
