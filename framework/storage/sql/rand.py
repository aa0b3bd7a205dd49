"""``RAND()`` seeded from the table's random source, the same on every backend (MariaDB too),
so that a game that shuffles in SQL replays.

Each ``RAND()`` becomes a hash of a seed (drawn from ``Table.random`` when the statement runs,
written in the SQL text in place of ``SEED_MARKER``) and of the row's primary key, in integer
arithmetic that every backend computes alike (values below 2**62, only ``+``, ``*`` and ``%``),
divided by 2**31 - 1. The row order of the backend does not matter: a row's value depends on
its key only, so ``ORDER BY RAND()`` sorts the same rows the same way everywhere.
"""

from __future__ import annotations

from sqlglot import exp

from framework.storage.sql.errors import Target, refuse
from framework.storage.sql.shapes import SchemaShapes

SEED_MARKER = "\x00arena_seed\x00"
MODULUS = 2147483647  # 2**31 - 1, a prime
_MULTIPLIER = 48271


def _number(value: int) -> exp.Expr:
    return exp.Literal.number(value)


def _mod(value: exp.Expr) -> exp.Expr:
    return exp.Mod(this=exp.Paren(this=value), expression=_number(MODULUS))


def _bigint(value: exp.Expr) -> exp.Expr:
    return exp.Cast(this=value, to=exp.DataType.build("BIGINT"))


_ROUNDS = ((48271, 12345), (69621, 40503))


def _mix(state: exp.Expr, key: exp.Expr) -> exp.Expr:
    """Fold ``key`` into ``state`` twice: ``((x * a + k) % M) * (k % M + b) % M`` is
    quadratic in the key and each product stays below 2**62 (the state appears once, so
    the expression grows linearly with the keys)."""
    for multiplier, offset in _ROUNDS:
        folded = _mod(exp.Add(this=_mod(_bigint(key.copy())), expression=_number(MODULUS)))
        linear = _mod(exp.Add(this=exp.Mul(this=exp.Paren(this=state),
                                           expression=_number(multiplier)),
                              expression=folded.copy()))
        state = _mod(exp.Mul(this=linear, expression=exp.Paren(
            this=exp.Add(this=folded, expression=_number(offset)))))
    return state


def _row_keys(owner: exp.Expr, shapes: SchemaShapes, target: Target) -> list[exp.Expr]:
    """The primary-key columns of the tables the row of ``owner`` (a SELECT, UPDATE or
    DELETE) comes from, qualified."""
    sources: list[exp.Expr] = []
    if isinstance(owner, exp.Select):
        from_ = owner.args.get("from_")
        if isinstance(from_, exp.From):
            sources.append(from_.this)
        sources.extend(j.this for j in owner.args.get("joins") or [])
    else:
        sources.append(owner.this)
        sources.extend(j.this for j in owner.this.args.get("joins") or [])
    keys: list[exp.Expr] = []
    for source in sources:
        if not isinstance(source, exp.Table):
            raise refuse("RAND() over a derived table", target,
                         "order the rows of a real table by RAND()")
        shape = shapes.table(source.name)
        key = (shape.primary_key or (shape.unique_keys[0] if shape.unique_keys else ())
               ) if shape is not None else ()
        if not key:
            raise refuse("RAND() over a table without a primary key", target,
                         "give the table a numeric PRIMARY KEY")
        assert shape is not None
        if any(shape.is_string_column(c) for c in key):
            raise refuse("RAND() over a table with a text primary key", target,
                         "give the table a numeric PRIMARY KEY")
        keys.extend(exp.column(c, table=source.alias_or_name) for c in key)
    return keys


def seed_rand(tree: exp.Expr, target: Target, shapes: SchemaShapes) -> bool:
    """Replace every ``RAND()`` of ``tree`` by its seeded hash; True when there was one.

    Raises:
        UnsupportedSQLError: ``RAND()`` over rows without a numeric primary key.
    """
    calls = list(tree.find_all(exp.Rand))
    for position, call in enumerate(calls, start=1):
        owner = call.find_ancestor(exp.Select, exp.Update, exp.Delete)
        keys = _row_keys(owner, shapes, target) if owner is not None else []
        given = call.this
        seed = _bigint(given.copy() if given is not None else exp.var(SEED_MARKER))
        state = _mod(exp.Add(this=seed, expression=_number(7919 * position)))
        for key in keys or [_number(position)]:
            state = _mix(state, key)
        value = exp.Div(this=exp.Cast(this=state, to=exp.DataType.build("DOUBLE")),
                        expression=_number(MODULUS))
        call.replace(exp.Paren(this=value))
    return bool(calls)
