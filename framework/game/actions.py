"""Player actions: ``act_*`` methods wired by name, their arguments checked against type hints."""

from __future__ import annotations

import functools
import inspect
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any, Literal, Union

from framework.core.errors import UserError
from framework.core.messages import whole_number

_NONE = type(None)


def _type_name(tp: Any) -> str:
    origin = typing.get_origin(tp)
    if origin in (Union, types.UnionType):
        return " or ".join(_type_name(a) for a in typing.get_args(tp))
    if origin is Literal:
        return "one of " + ", ".join(repr(a) for a in typing.get_args(tp))
    if origin is list:
        (inner,) = typing.get_args(tp) or (Any,)
        return f"a list of {_type_name(inner)}"
    return {int: "a whole number", float: "a number", str: "a text", bool: "true or false",
            _NONE: "null"}.get(tp, getattr(tp, "__name__", str(tp)))


class _Mismatch(Exception):
    pass


def _coerce(value: Any, tp: Any) -> Any:
    """``value`` as ``tp``, accepting the text forms the CLI and HTML forms send."""
    if tp is Any or tp is inspect.Parameter.empty:
        return value
    by_origin = _ORIGIN_COERCERS.get(typing.get_origin(tp))
    if by_origin is not None:
        return by_origin(value, tp)
    for scalar, coerce in _SCALAR_COERCERS:
        if tp is scalar:
            return coerce(value)
    if isinstance(value, tp):
        return value
    raise _Mismatch


def _coerce_union(value: Any, tp: Any) -> Any:
    """The first option of the union that accepts ``value``."""
    for option in typing.get_args(tp):
        try:
            return _coerce(value, option)
        except _Mismatch:
            continue
    raise _Mismatch


def _coerce_literal(value: Any, tp: Any) -> Any:
    """The first allowed literal that ``value`` equals once converted to its type."""
    for allowed in typing.get_args(tp):
        try:
            if _coerce(value, type(allowed)) == allowed:
                return allowed
        except _Mismatch:
            continue
    raise _Mismatch


def _coerce_list(value: Any, tp: Any) -> list[Any]:
    """A list, or comma-separated text (empty items dropped), with each item converted."""
    (inner,) = typing.get_args(tp) or (Any,)
    if isinstance(value, str):
        value = [v for v in value.split(",") if v != ""]
    if not isinstance(value, list):
        raise _Mismatch
    return [_coerce(v, inner) for v in value]


def _coerce_none(value: Any) -> None:
    if value is None:
        return None
    raise _Mismatch


def _coerce_bool(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower() in ("true", "false", "1", "0"):
        return value.lower() in ("true", "1")
    raise _Mismatch


def _coerce_int(value: Any) -> int:
    """An int, a whole float or the text of a whole number; never a bool."""
    number = whole_number(value)
    if number is None:
        raise _Mismatch
    return number


def _coerce_float(value: Any) -> float:
    """An int, a float or the text of a number; never a bool."""
    if isinstance(value, bool):
        raise _Mismatch
    if isinstance(value, int | float):
        return float(value)
    if isinstance(value, str):
        try:
            return float(value)
        except ValueError:
            raise _Mismatch from None
    raise _Mismatch


def _coerce_str(value: Any) -> str:
    if isinstance(value, str):
        return value
    raise _Mismatch


# Generic hints by their origin (Optional[X] and X | None are both unions).
_ORIGIN_COERCERS: dict[Any, Callable[[Any, Any], Any]] = {
    Union: _coerce_union, types.UnionType: _coerce_union, Literal: _coerce_literal,
    list: _coerce_list,
}
# Plain types, matched by identity (a bool is an int, but ``bool`` is not ``int``).
_SCALAR_COERCERS: tuple[tuple[Any, Callable[[Any], Any]], ...] = (
    (_NONE, _coerce_none), (bool, _coerce_bool), (int, _coerce_int), (float, _coerce_float),
    (str, _coerce_str),
)


def action_parameters(method: Callable[..., Any]) -> dict[str, tuple[Any, bool]]:
    """name -> (type, required) for the arguments of an ``act_*`` method."""
    return _parameters(getattr(method, "__func__", method))


@functools.lru_cache(maxsize=1024)
def _parameters(method: Callable[..., Any]) -> dict[str, tuple[Any, bool]]:
    hints = typing.get_type_hints(method)
    params: dict[str, tuple[Any, bool]] = {}
    for name, param in inspect.signature(method).parameters.items():
        if name == "self" or param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            continue
        params[name] = (hints.get(name, Any), param.default is inspect.Parameter.empty)
    return params


def bind_action_args(action: str, method: Callable[..., Any], args: Mapping[str, Any]) -> dict[str, Any]:
    """Check ``args`` against ``method``'s signature and convert them.

    Raises:
        UserError: an argument is missing, unknown, or of the wrong type.
    """
    if not isinstance(args, Mapping):
        raise UserError("The arguments of ${action} must be an object", "bad_arguments", action=action)
    params = action_parameters(method)
    extra = sorted(set(args) - set(params))
    if extra:
        raise UserError(
            "Action ${action} has no argument ${name}; it takes: ${known}", "bad_arguments",
            action=action, name=", ".join(map(str, extra)), known=", ".join(params) or "nothing",
        )
    kwargs: dict[str, Any] = {}
    for name, (tp, required) in params.items():
        if name not in args:
            if required:
                raise UserError(
                    "Action ${action} needs the argument ${name}", "bad_arguments",
                    action=action, name=name,
                )
            continue
        try:
            kwargs[name] = _coerce(args[name], tp)
        except _Mismatch:
            raise UserError(
                "Argument ${name} of ${action} must be ${expected}, not ${value}", "bad_arguments",
                action=action, name=name, expected=_type_name(tp), value=repr(args[name])[:60],
            ) from None
    return kwargs
