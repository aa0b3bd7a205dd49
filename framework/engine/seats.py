"""Players leaving: a player quits, or is expelled when out of time, and a zombie plays
their seat; extra time on a player's clock."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from framework.core.errors import GameCodeError, GameOverError, NotYourTurnError, UserError
from framework.engine.directory import TableDirectory
from framework.engine.errorlog import ErrorLog
from framework.engine.settle import StateDriver
from framework.engine.views import TableViews
from framework.game.registry import GameDefinition
from framework.game.table import ActionContext, Table
from framework.i18n import clienttranslate, clienttranslate_plural


class Seats:
    """Hands seats to zombies (``zombie_turn``), one transaction each; ``after_commit`` is
    told of each change (wake-ups, the end-of-game record)."""

    def __init__(self, directory: TableDirectory, driver: StateDriver, views: TableViews,
                 now: Callable[[], datetime], after_commit: Callable[[int, bool], None],
                 errors: ErrorLog) -> None:
        self.errors = errors
        self.directory = directory
        self.driver = driver
        self.views = views
        self.now = now
        self.after_commit = after_commit

    def expel(self, table_id: int, requester_id: int, target_id: int) -> None:
        """``target_id`` is out of time: another player hands their seat to a zombie.

        Raises:
            UserError: the requester is not at the table, or the target still has time.
        """
        with self.directory.open(table_id) as (info, gdef, db):
            table = gdef.table_class(ActionContext(db=db, current_player_id=requester_id, now=self.now))
            if table.gamestate.is_game_over():
                raise GameOverError("This game is over", "game_over")
            players = table.load_players_basic_infos()
            if requester_id not in players or players[requester_id]["player_zombie"]:
                raise NotYourTurnError("Only a player of this table can do that", "not_a_player")
            if target_id not in players or target_id == requester_id:
                raise UserError("There is no such opponent at this table", "bad_player")
            if players[target_id]["player_zombie"]:
                raise UserError("${player_name} has already left", "already_zombie",
                                player_name=players[target_id]["player_name"])
            if target_id not in table.gamestate.get_active_player_list():
                raise UserError("${player_name} is not the one the game is waiting for",
                                "not_active", player_name=players[target_id]["player_name"])
            left = table.get_remaining_time(target_id)
            if left > 0:
                raise UserError(
                    clienttranslate_plural("${player_name} still has ${seconds} second to play",
                                           "${player_name} still has ${seconds} seconds to play",
                                           "seconds"),
                    "still_has_time", player_name=players[target_id]["player_name"],
                    seconds=int(left),
                )
            self.driver.begin_move(table)
            self._zombie_logged(info.id, requester_id, "expel", table, gdef, target_id,
                                clienttranslate("${player_name} ran out of time and was expelled"))
        self.after_commit(info.id, self.is_over(info.id))

    def leave(self, table_id: int, player_id: int) -> None:
        """A player quits: their seat is played by ``zombie_turn`` from now on."""
        with self.directory.open(table_id) as (info, gdef, db):
            table = gdef.table_class(ActionContext(db=db, current_player_id=player_id, now=self.now))
            if table.gamestate.is_game_over():
                raise GameOverError("This game is over", "game_over")
            players = table.load_players_basic_infos()
            if player_id not in players:
                raise NotYourTurnError("You are not playing at this table", "not_a_player")
            if players[player_id]["player_zombie"]:
                raise UserError("You have already left this game", "already_left")
            self.driver.begin_move(table)
            self._zombie_logged(info.id, player_id, "leave", table, gdef, player_id,
                                clienttranslate("${player_name} left the game"))
        self.after_commit(info.id, self.is_over(info.id))

    def _zombie_logged(self, table_id: int, requester_id: int, label: str, table: Table,
                       gdef: GameDefinition, player_id: int, log_msg: str) -> None:
        """``_make_zombie``, with any error of game code (``zombie_turn``, ``bot_turn``, state
        actions) written to the table's error log; the transaction rolls back."""
        try:
            self._make_zombie(table, gdef, player_id, log_msg)
        except Exception as exc:  # no player made this move: any error is the game's
            self.errors.log_error(table_id, requester_id, label, exc)
            raise GameCodeError(
                "The game hit an error and the change was cancelled; it is in the table's "
                "error log", "game_error",
            ) from exc

    def _make_zombie(self, table: Table, gdef: GameDefinition, player_id: int, log_msg: str) -> None:
        table.db_query("UPDATE player SET player_zombie = 1 WHERE player_id = %s", (player_id,))
        table.touch()  # a worker's kept rows of the table are stale
        table.notify_all_players("playerLeft", log_msg, player_id=player_id,
                                 player_name=table.get_player_name_by_id(player_id))
        self.driver.settle(table, gdef)

    def is_over(self, table_id: int) -> bool:
        """The table's game has reached its end state."""
        with self.views.read(table_id) as table:
            return table.gamestate.is_game_over()

    def give_extra_time(self, table_id: int, player_id: int) -> None:
        with self.directory.open(table_id) as (_, gdef, db):
            table = gdef.table_class(ActionContext(db=db, now=self.now))
            table.give_extra_time(player_id)
            table.touch()
