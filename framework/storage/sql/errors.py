"""What the SQL layer refuses, and the targets it writes for."""

from __future__ import annotations

from typing import Literal, get_args

Target = Literal["sqlite", "postgresql", "mysql"]
TARGETS: tuple[str, ...] = get_args(Target)

TARGET_NAMES = {"sqlite": "SQLite", "postgresql": "PostgreSQL", "mysql": "MariaDB"}


# ---------------------------------------------------------------------------------------------
# Errors


class SQLError(ValueError):
    """SQL that Arena cannot accept: a syntax error, or a statement it does not handle."""


class SchemaError(SQLError):
    """A bad statement in a ``dbmodel.sql`` (or the framework's own default tables).

    ``str()`` reads ``dbmodel.sql line 12: <reason>`` followed by the statement's first line.
    """

    def __init__(
        self, reason: str, *, filename: str = "dbmodel.sql", line: int = 1, statement: str = ""
    ) -> None:
        self.reason = reason
        self.filename = filename
        self.line = line
        self.statement = statement
        super().__init__(reason)

    def __str__(self) -> str:
        text = f"{self.filename} line {self.line}: {self.reason}"
        if self.statement:
            lines = self.statement.strip().splitlines()
            first = lines[0]
            if len(first) > 120:
                first = first[:117] + "..."
            elif len(lines) > 1:
                first += " ..."
            text += f"\n  {first}"
        return text


class UnsupportedSQLError(SQLError):
    """Valid MySQL that cannot be translated faithfully to the target backend.

    ``construct`` names it (``"ON DUPLICATE KEY UPDATE"``, ``"RAND()"``...).
    """

    def __init__(self, construct: str, target: str, advice: str) -> None:
        self.construct = construct
        self.target = target
        self.advice = advice
        name = TARGET_NAMES.get(target, target)
        super().__init__(f"{construct} cannot be translated to {name}: {advice}")


def check_target(target: str) -> None:
    if target not in TARGETS:
        raise ValueError(f"unknown SQL target {target!r}; expected one of {', '.join(TARGETS)}")



def refuse(construct: str, target: Target, advice: str) -> UnsupportedSQLError:
    return UnsupportedSQLError(construct, target, advice)

