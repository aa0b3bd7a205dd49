"""MySQL booleans are integers, PostgreSQL's are not: conditions and values bridged."""

from __future__ import annotations

from sqlglot import exp

from framework.storage.sql.generate import wrap

_BOOLEAN_NODES: tuple[type[exp.Expr], ...] = (
    exp.Predicate, exp.Connector, exp.Not, exp.Boolean,
)


def _effective_parent(node: exp.Expr) -> tuple[exp.Expr, exp.Expr | None]:
    child, parent = node, node.parent
    while isinstance(parent, exp.Paren):
        child, parent = parent, parent.parent
    return child, parent


def _is_condition_position(node: exp.Expr) -> bool:
    child, parent = _effective_parent(node)
    if parent is None:
        return False
    key = child.arg_key
    if isinstance(parent, (exp.Where, exp.Having)) and key == "this":
        return True
    if isinstance(parent, exp.Join) and key == "on":
        return True
    if isinstance(parent, (exp.Connector, exp.Not)):
        return True
    if isinstance(parent, exp.If) and key == "this":
        case = parent.parent
        return not (isinstance(case, exp.Case) and case.args.get("this") is not None)
    return False


def _is_assignment(node: exp.Expr) -> bool:
    parent = node.parent
    return isinstance(node, exp.EQ) and isinstance(parent, (exp.Update, exp.OnConflict)) and (
        node.arg_key == "expressions"
    )


def bridge_booleans(tree: exp.Expr) -> None:
    """PostgreSQL separates booleans from integers; MySQL does not (TRUE is 1, a comparison
    is 0 or 1). Conditions get ``<> 0``; comparisons used as values are cast to integers."""
    to_condition: list[exp.Expr] = []
    to_integer: list[exp.Expr] = []
    for node in tree.walk():
        if isinstance(node, exp.Paren) or _is_assignment(node):
            continue
        is_boolean = isinstance(node, _BOOLEAN_NODES)
        if _is_condition_position(node):
            if not is_boolean:
                to_condition.append(node)
        elif is_boolean and node.parent is not None:
            parent = node.parent
            if isinstance(parent, exp.Is) and node.arg_key == "expression":
                continue
            to_integer.append(node)
    for node in to_condition:
        if isinstance(node, exp.Literal) and not node.is_string:
            node.replace(exp.Boolean(this=float(node.this) != 0))
        else:
            comparison = wrap(node, exp.NEQ(expression=exp.Literal.number(0)))
            wrap(comparison, exp.Paren())
    for node in to_integer:
        if isinstance(node, exp.Boolean):
            node.replace(exp.Literal.number(1 if node.this else 0))
        else:
            wrap(node, exp.Cast(to=exp.DataType.build("INT")))

