"""The action gatekeeper: one player's action, checked in a fixed order, applied and settled
in one transaction on the table's database."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from framework.core.errors import (
    ArenaError,
    BlockedError,
    GameCodeError,
    GameOverError,
    GameSystemError,
    NotFoundError,
    NotYourTurnError,
    StaleMoveError,
    UserError,
)
from framework.core.kinds import TableMode
from framework.engine.directory import TableDirectory, TableInfo
from framework.engine.errorlog import ErrorLog
from framework.engine.settle import StateDriver
from framework.engine.views import last_packet_id
from framework.game.actions import bind_action_args
from framework.game.feed import Packet
from framework.game.globals import GLOBAL_MOVE, acted_global
from framework.game.kept import KeptState, KeptStates, StaleKeptState
from framework.game.registry import GameDefinition
from framework.game.states import END_STATE_ID
from framework.game.table import ActionContext, Table
from framework.game.table_values import globals_read

#: The notifications a commit wrote and the table's status after it.
Published = tuple[list[Packet], dict[str, Any]]


@dataclass
class ActionResult:
    """What an action changed, for the caller (the web answers with it)."""

    table_id: int
    state: str
    last_notification_id: int
    game_over: bool
    move: int = 0  # the table's move number after the action (send it back as ``seen_move``)


class Gatekeeper:
    """Applies actions and studio changes; what happens after the commit (wake-ups, the end
    of game record) is the caller's."""

    def __init__(
        self, directory: TableDirectory, driver: StateDriver, errors: ErrorLog,
        now: Callable[[], datetime], before_action: Callable[[TableInfo], TableInfo] | None,
        wants_packets: Callable[[int], bool],
    ) -> None:
        self.directory = directory
        self.driver = driver
        self.errors = errors
        self.now = now
        self.before_action = before_action
        self.wants_packets = wants_packets
        # what this worker keeps of each table it played, for the table's next action
        self.kept = KeptStates()

    def act(
        self, table_id: int, player_id: int, action: str, args: Mapping[str, Any] | None = None,
        seen_move: int | None = None,
    ) -> tuple[ActionResult, Published | None]:
        """``Runtime.act`` up to the commit; also what the commit published (for the
        table's streams), or None when no one takes it.

        Checked in this order, each with its own error: unknown table, game blocked, game
        over, move already sent, unknown action, not allowed in this state, not your turn,
        bad arguments.
        """
        info = self.directory.table_info(table_id)
        gdef = self.directory.game_for(info)
        if info.mode == TableMode.PRODUCTION and self.directory.is_blocked(info.game):
            raise BlockedError(
                "${game} is being updated; your move was not sent. Try again in a minute.",
                "game_blocked", game=gdef.info.display_name,
            )
        if self.before_action is not None:
            info = self.before_action(info)
        kept = self.kept.take(info.id)
        try:
            return self._act_once(info, kept, player_id, action, args, seen_move)
        except StaleKeptState:  # rolled back: once more, from the table's rows
            return self._act_once(info, None, player_id, action, args, seen_move)

    def _act_once(
        self, info: TableInfo, kept: KeptState | None, player_id: int, action: str,
        args: Mapping[str, Any] | None, seen_move: int | None,
    ) -> tuple[ActionResult, Published | None]:
        """``act`` in one transaction, from ``kept`` when it is given and still the table's.

        Raises:
            StaleKeptState: ``kept`` was not the table's (the transaction was rolled back).
        """
        try:
            # The release is read again under the table's lock (another process may have
            # upgraded or rolled the table back since this one last looked), unless the kept
            # copy vouches for it (``TableDirectory.open_for_action``).
            # the globals come with the lock on the servers (one round trip)
            first_read = globals_read(self.directory.store.dialect)
            kept_release = kept.release if kept is not None else None
            with self.directory.open_for_action(info.id, first_read=first_read,
                                                kept_release=kept_release) as (info, gdef, db, on_trust):
                ctx = ActionContext(db=db, current_player_id=player_id, now=self.now,
                                    defer_writes=True)
                table = gdef.table_class(ctx)
                if not table.adopt(kept, info.release_version, gdef) and on_trust:
                    # the release was taken on trust from a copy that is not the table's
                    raise StaleKeptState("the kept copy is stale: the table's release is read again")
                try:
                    return self._apply(info, gdef, table, player_id, action, args, seen_move)
                except Exception as exc:
                    _replay_if_stale(table, exc)
                    raise
        except GameSystemError as exc:
            self.errors.log_error(info.id, player_id, action, exc)
            raise _move_cancelled() from exc

    def _apply(
        self, info: TableInfo, gdef: GameDefinition, table: Table, player_id: int, action: str,
        args: Mapping[str, Any] | None, seen_move: int | None,
    ) -> tuple[ActionResult, Published | None]:
        """The checks, the action and its consequences, on the open table (``act``)."""
        ctx = table.context
        state = table.gamestate.state()
        if state.id == END_STATE_ID:
            raise GameOverError("This game is over", "game_over")
        if seen_move is not None:
            self._check_fresh(table, player_id, seen_move)
        method = getattr(table, f"act_{action}", None) if _is_name(action) else None
        declared = isinstance(action, str) and action in gdef.states.all_actions
        if method is None or not declared:
            raise NotFoundError("Unknown action ${action}", "unknown_action", action=str(action)[:64])
        own = table.gamestate.get_current_state(player_id)  # a private state, if any
        if action not in own.possible_actions:
            raise UserError(
                "You cannot ${action} now: the game is waiting for ${state}",
                "not_allowed_in_state", action=action, state=own.name,
            )
        if player_id not in table.load_players_basic_infos():
            raise NotYourTurnError("You are not playing at this table", "not_a_player")
        active = table.gamestate.get_active_player_list()
        if player_id not in active:
            raise NotYourTurnError("It is not your turn", "not_your_turn")
        ctx.active_at_start = frozenset(active)
        kwargs = bind_action_args(action, method, args or {})
        self.driver.begin_move(table)
        try:
            method(**kwargs)
            self.driver.settle(table, gdef)
        except ArenaError:
            raise
        except Exception as exc:
            _replay_if_stale(table, exc)  # not the game's error: nothing to log
            self.errors.log_error(info.id, player_id, action, exc)
            raise _move_cancelled() from exc
        if seen_move is not None:  # with the action's other globals: no statement of its own
            table.set_game_state_value(acted_global(table.get_player_no_by_id(player_id)), seen_move)
        table.touch()
        table.flush_writes()
        self.kept.put(info.id, table.keep(info.release_version, gdef))
        result = ActionResult(
            info.id, table.gamestate.state().name, last_packet_id(table),
            table.gamestate.is_game_over(), int(table.get_game_state_value(GLOBAL_MOVE) or 0),
        )
        # for this process's streams of the table (their feed): only when one takes them
        published = (ctx.packets, table.stream_status()) \
            if ctx.packets and self.wants_packets(info.id) else None
        return result, published

    def apply_change(self, table_id: int, change: Callable[[Table], None], label: str,
                     player_id: int | None = None) -> TableInfo:
        """``Runtime.apply_change`` up to the commit; the table's registry row."""
        info = self.directory.table_info(table_id)
        try:
            with self.directory.open(info.id) as (info, gdef, db):
                table = gdef.table_class(ActionContext(db=db, current_player_id=None, now=self.now,
                                                       defer_writes=True))
                self.kept.forget(info.id)
                change(table)
                self.driver.begin_move(table)
                self.driver.settle(table, gdef)
                table.touch()
                table.flush_writes()
        except ArenaError:
            raise
        except Exception as exc:
            self.errors.log_error(info.id, player_id, label, exc)
            raise GameCodeError("The game hit an error and the change was cancelled; it is in the "
                                "table's error log", "game_error") from exc
        return info

    @staticmethod
    def _check_fresh(table: Table, player_id: int, seen_move: int) -> None:
        """Refuse a second action of ``player_id`` sent from the same view of the table."""
        current = int(table.get_game_state_value(GLOBAL_MOVE) or 0)
        if not 0 <= seen_move <= current:
            raise UserError("Move ${move} does not exist at this table", "bad_move", move=seen_move)
        players = table.load_players_basic_infos()
        if player_id not in players:
            return  # refused further on: not a player here
        last: int | str | None = table.get_game_state_value(acted_global(players[player_id]["player_no"]))
        if last is None:  # none yet, or the table's last actions were recorded as it once was
            last = table.meta(f"acted:{player_id}")
        if last is not None and seen_move <= int(last):
            raise StaleMoveError(
                "This move was already sent; the table has moved on since", "stale_move")


def _is_name(value: Any) -> bool:
    return isinstance(value, str) and value.isidentifier() and not value.startswith("_")


def _replay_if_stale(table: Table, exc: BaseException) -> None:
    """Raise ``StaleKeptState`` when ``exc`` came from a kept state that was not the table's
    (``Gatekeeper.act`` then plays the action again from the rows)."""
    if isinstance(exc, StaleKeptState):
        raise exc
    if table.kept_was_stale():
        raise StaleKeptState(str(exc)) from exc


def _move_cancelled() -> GameCodeError:
    """What the player is told when the game's code raised during their move (logged)."""
    return GameCodeError(
        "The game hit an error and your move was cancelled; it is in the table's error log", "game_error",
    )
