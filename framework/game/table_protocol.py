"""What the helpers a ``Table`` hands itself to (``Deck``, ``GameStateMachine``, the modern
objects of ``modern.services``: counters, globals, stats...) use of it: a Protocol, so that
they need not import ``framework.game.table``, which imports them. ``Table`` satisfies it
structurally; mypy checks that where a ``Table`` is handed over."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from framework.game.definition_protocol import GameDefinitionProtocol
from framework.game.states import State
from framework.game.table_context import ActionContext
from framework.storage.base import Result


class Notifier(Protocol):
    """The part of ``self.notify`` (``modern.notify.Notify``) the counters use."""

    def all(self, notif_type: str, /, message: str = "", args: Mapping[str, Any] | None = None,
            **kwargs: Any) -> None: ...


class TableProtocol(Protocol):
    """The members of ``Table`` its helpers use."""

    @property
    def definition(self) -> GameDefinitionProtocol: ...

    @property
    def context(self) -> ActionContext: ...

    @property
    def random(self) -> random.Random: ...

    @property
    def notify(self) -> Notifier: ...

    # ------------------------------------------------------------------ the database
    def db_query(self, sql: str, params: Sequence[Any] = ()) -> Result: ...

    def update_matched_rows(self, sql: str, params: Sequence[Any] = ()) -> int: ...

    def get_object_list_from_db(
        self, sql: str, params: Sequence[Any] = (), *, single_column: bool = False
    ) -> list[Any]: ...

    def get_object_from_db(self, sql: str, params: Sequence[Any] = ()) -> dict[str, Any] | None: ...

    def get_unique_value_from_db(self, sql: str, params: Sequence[Any] = ()) -> Any: ...

    def forget_cached_rows(self) -> None: ...

    # ------------------------------------------------------------------ globals, options, meta
    def _read_global(self, gid: int) -> int | None: ...

    def _write_global(self, gid: int, value: int) -> None: ...

    def get_game_state_value(self, label: str | int, default: int | None = None) -> int | None: ...

    def get_option(self, key: str | int) -> int: ...

    def meta(self, key: str) -> str | None: ...

    def set_meta(self, key: str, value: str) -> None: ...

    def delete_meta(self, key: str) -> None: ...

    # ------------------------------------------------------------------ players
    def _player_rows(self) -> dict[int, dict[str, Any]]: ...

    def load_players_basic_infos(self) -> dict[int, dict[str, Any]]: ...

    def get_active_player_id(self) -> int: ...

    # ------------------------------------------------------------------ notifications
    def notify_all_players(
        self, notif_type: str, log: str, args: Mapping[str, Any] | None = None, **kwargs: Any
    ) -> None: ...

    def notify_player(
        self, player_id: int, notif_type: str, log: str, args: Mapping[str, Any] | None = None,
        **kwargs: Any,
    ) -> None: ...

    # ------------------------------------------------------------------ statistics
    def init_stat(
        self, scope: str, key: str, value: float | int | bool, player_id: int | None = None
    ) -> None: ...

    def set_stat(self, value: float | int | bool, key: str, player_id: int | None = None) -> None: ...

    def inc_stat(self, delta: float | int, key: str, player_id: int | None = None) -> None: ...

    def get_stat(self, key: str, player_id: int | None = None) -> float | int | bool: ...

    # ------------------------------------------------------------------ states
    def state_args(self, state: State, player_id: int | None = None) -> dict[str, Any]: ...
