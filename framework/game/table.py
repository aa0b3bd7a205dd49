"""The API a game sees: BGA's ``Table`` class, in snake_case Python.

One instance serves one request inside one transaction on the table's own database;
nothing survives in memory between requests. The helpers live by concept beside this file
(``table_database``, ``table_values``, ``table_notify``, ``table_players``,
``table_statistics``, ``table_clocks``, ``table_logs``); ``Table`` gathers them with the
hooks a game overrides.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from framework.core.errors import GameSystemError, NotYourTurnError, UserError
from framework.game.deck import Deck
from framework.game.gamestate import GameStateMachine
from framework.game.globals import GLOBAL_MOVE
from framework.game.modern.services import ModernServices
from framework.game.states import State, StateType
from framework.game.table_clocks import TableClocks, table_status
from framework.game.table_context import TIME_FORMAT, ActionContext
from framework.game.table_logs import TableLogs
from framework.storage.sql.rand import MODULUS as RAND_MODULUS

__all__ = ["TIME_FORMAT", "ActionContext", "Table", "table_status"]

#: BGA's ``getBgaEnvironment``: Arena's studio and production modes run the same code.
BGA_ENVIRONMENT = "studio"


class Table(TableClocks, TableLogs, ModernServices):
    """Base class of a game's table (BGA's ``Table``). Subclass it in ``games/<g>/game.py``.

    Hooks to override: ``setup_new_game``, ``get_all_datas``, ``get_game_progression``,
    ``zombie_turn``, ``upgrade_table_db``, ``get_last_trick``, ``text_view``, ``rating_teams``.
    State actions are ``st_*``, state args ``arg_*``, player actions ``act_*`` (wired by name
    from ``possible_actions``, arguments typed).
    """

    #: During ``upgrade_table_db`` only: schema operations applied to every copy too
    #: (``framework.releases.migrate.TableMigrator``); None otherwise.
    migrate: Any = None

    def __init__(self, ctx: ActionContext) -> None:
        super().__init__(ctx)
        self._random: random.Random | None = None
        self.gamestate = GameStateMachine(self)

    # ----------------------------------------------------------------- hooks for games
    def setup_new_game(self, players: Mapping[int, Mapping[str, Any]], options: Mapping[int, int]) -> Any:
        """Called once, when the table is created; players are already in ``player``.
        Nobody is active yet: ``active_next_player()`` makes the first player active (if
        nobody is active afterwards, the first player is).

        May return the first state (a state class, an id or a name; BGA's ``return
        PlayerTurn::class``); None follows state 1's transition."""

    def get_all_datas(self, player_id: int | None) -> dict[str, Any]:
        """Everything ``player_id`` may see (None: a spectator). Never another's hidden cards.

        For a signed-in spectator ``player_id`` is None while ``get_current_player_id()`` is
        their id, as on BGA; ``is_spectator()`` is True for them.
        """
        return {}

    def get_game_progression(self) -> int:
        """0..100."""
        return 0

    def text_view(self, player_id: int | None) -> str:
        """What ``arena table show`` prints below the table's state: ``player_id``'s view as
        text (None: a spectator's), never another player's hidden information. The default
        lists the players with their scores (``*``: active); a game adds its own board."""
        active = set(self.gamestate.get_active_player_list())
        scores = {int(r["player_id"]): int(r["player_score"]) for r in
                  self.db_query("SELECT player_id, player_score FROM player").rows}
        lines = []
        for pid, p in self.load_players_basic_infos().items():
            score = scores[pid]
            flags = (" (zombie)" if p.get("player_zombie") else "") + (" (bot)" if p.get("player_ai") else "")
            lines.append(f" {'*' if pid in active else ' '} {p['player_name']} [{pid}] score {score}{flags}")
        return "\n".join(lines)

    def rating_teams(self) -> list[list[int]]:
        """The players who are partners at this table, for ratings: each list is one team,
        whose members share its result (``docs/ratings.md``). The default: no teams, every
        player on their own."""
        return [[pid] for pid in self.load_players_basic_infos()]

    def zombie_turn(self, state: State, active_player: int) -> None:
        """Play for a player who left: must make the game move on. ``state`` is the player's
        own private state when they are in one."""
        raise GameSystemError(
            f"{type(self).__name__} does not implement zombie_turn (state {state.name!r})"
        )

    def upgrade_table_db(self, from_version: int) -> None:
        """Bring a table created by an older release up to this one's schema."""

    def get_last_trick(self, player_id: int | None) -> dict[str, Any] | None:
        """The last completed trick (or round) as the table page shows it on demand, for
        ``player_id`` (None: a spectator); None when there is none yet, or the game has no
        tricks (the default). Public information only: the page shows it to every viewer.

        The shape the framework's client draws (``static/lasttrick.js``)::

            {"winner": <player id or None>, "cards": [{"player_id": ..., "card": "<code>"}],
             "points": <int or None>, ...}  # a game may add keys of its own (Belote: "trick_no")
        """
        return None

    def init_table(self) -> None:
        """BGA's ``initTable`` (called before every entry point) has no Arena form: a Table
        is built for each request, so its ``__init__`` is that place.

        Raises:
            GameSystemError: always; override ``__init__`` instead.
        """
        raise GameSystemError(
            "init_table: Arena builds a Table for every request; put per-request set-up in "
            "__init__ (after super().__init__(ctx))"
        )

    # ----------------------------------------------------------------- game information
    def get_gameinfos(self) -> dict[str, Any]:
        """The game's information under BGA's ``gameinfos.inc.php`` keys (``GameInfo``)."""
        return self.definition.info.to_gameinfos()

    def get_game_language(self) -> str:
        """The table's language, for a language-dependent game (``GameInfo.language_dependency``
        set): the table's ``language`` meta value, else the first language the game lists.

        Raises:
            GameSystemError: the game is not language dependent (each player then reads the
                game in their own language, and a table has none), or it lists no language
                and the table has none set.
        """
        info = self.definition.info
        chosen = self.meta("language")
        if chosen:
            return chosen
        if not info.language_dependency:
            raise GameSystemError(
                f"get_game_language: game {info.name!r} is not language dependent "
                "(GameInfo.language_dependency), so a table has no language: each player "
                "reads it in their own"
            )
        if isinstance(info.language_dependency, tuple) and info.language_dependency:
            return info.language_dependency[0]
        raise GameSystemError(
            f"get_game_language: game {info.name!r} needs one language per table, but this "
            "table has none (set_meta('language', 'fr') at setup)"
        )

    @staticmethod
    def get_bga_environment() -> str:
        """``"studio"``: Arena runs the same code for studio and production tables (ask
        ``meta('release')`` for a production table's release)."""
        return BGA_ENVIRONMENT

    def get_generic_game_infos(self, api: str, args: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """BGA's external APIs for authorised games do not exist on Arena.

        Raises:
            GameSystemError: always.
        """
        raise GameSystemError(
            f"get_generic_game_infos({api!r}): BGA's external game APIs do not exist on Arena"
        )

    def log_text_for_moderation(self, player_id: int, message: str) -> None:
        """Keep a text a player wrote so it can be reported (BGA's ``logTextForModeration``):
        Arena logs it under ``arena.game.<game>.moderation``."""
        self._player_row(player_id, "log_text_for_moderation")
        self.logger.getChild("moderation").info("player %s: %s", player_id, message)

    def is_realtime(self) -> bool:
        """BGA's realtime/turn-based setting has no Arena form.

        Raises:
            GameSystemError: always (every Arena table has one clock per player).
        """
        raise GameSystemError(
            "is_realtime: Arena tables have no realtime or turn-based setting; every table has "
            "one clock per player (GameInfo.reflexion_time_s)"
        )

    def is_async(self) -> bool:
        """See ``is_realtime``.

        Raises:
            GameSystemError: always.
        """
        raise GameSystemError(
            "is_async: Arena tables have no realtime or turn-based setting; every table has "
            "one clock per player (GameInfo.reflexion_time_s)"
        )

    def get_game_user_preference(self, player_id: int, pref_id: int) -> int | None:
        """A player's choice of a game preference (``options.py``'s ``PREFERENCES``), from
        ``self.user_preferences`` when the table has that store.

        Raises:
            GameSystemError: the game declares no preference ``pref_id``, no such player, or
                the table keeps no players' choices (read the preference on the client).
        """
        self._player_row(player_id, "get_game_user_preference")
        if pref_id not in self.definition.options.preferences:
            raise GameSystemError(
                f"get_game_user_preference: game {self.definition.name!r} declares no "
                f"preference {pref_id}"
            )
        store = getattr(self, "user_preferences", None)
        if store is None:
            raise GameSystemError(
                "get_game_user_preference: this table keeps no players' preference choices "
                "(self.user_preferences); a preference changes the display only, so read it "
                "on the client"
            )
        value: int | None = store.get(player_id, pref_id)
        return value

    @staticmethod
    def _(text: str) -> str:
        """BGA's deprecated ``$this->_()``: the text itself. Mark a literal with
        ``clienttranslate("...")`` instead, so that extraction finds it."""
        return text

    def get_new(self, object_name: str, table_name: str = "card") -> Deck:
        """BGA's ``getNew("module.common.deck")``: a ``Deck`` over ``table_name``.

        Raises:
            GameSystemError: any other object name.
        """
        if object_name != "module.common.deck":
            raise GameSystemError(
                f"get_new({object_name!r}): Arena has only 'module.common.deck' (a Deck)"
            )
        return Deck(self, table_name)

    # ----------------------------------------------------------------- legacy data
    def _legacy(self, helper: str) -> Any:
        legacy = getattr(self, "legacy", None)
        if legacy is None:
            raise GameSystemError(
                f"{helper}: data kept across tables needs the platform's legacy store "
                "(self.legacy), which this table does not have"
            )
        return legacy

    def store_legacy_data(self, player_id: int, key: str, data: Any, ttl: int = 365) -> None:
        """BGA's deprecated form of ``self.legacy.set(key, player_id, data, ttl)``."""
        self._legacy("store_legacy_data").set(key, player_id, data, ttl)

    def retrieve_legacy_data(self, player_id: int, key: str) -> Any:
        """BGA's deprecated form of ``self.legacy.get(key, player_id)``."""
        return self._legacy("retrieve_legacy_data").get(key, player_id)

    def remove_legacy_data(self, player_id: int, key: str) -> None:
        """BGA's deprecated form of ``self.legacy.delete(key, player_id)``."""
        self._legacy("remove_legacy_data").delete(key, player_id)

    def store_legacy_team_data(self, data: Any, ttl: int = 365) -> None:
        """BGA's deprecated form of ``self.legacy.set_team(data, ttl)``."""
        self._legacy("store_legacy_team_data").set_team(data, ttl)

    def retrieve_legacy_team_data(self) -> Any:
        """BGA's deprecated form of ``self.legacy.get_team()``."""
        return self._legacy("retrieve_legacy_team_data").get_team()

    def remove_legacy_team_data(self) -> None:
        """BGA's deprecated form of ``self.legacy.delete_team()``."""
        self._legacy("remove_legacy_team_data").delete_team()

    # ----------------------------------------------------------------- randomness
    @property
    def random(self) -> random.Random:
        """This request's random source, seeded from the table's recorded seed and move.

        Never use the global ``random``: a table must replay identically from its seed.
        """
        if self._random is None:
            seed = self.meta("seed") or "0"
            move = self._read_global(GLOBAL_MOVE) or 0
            self._random = random.Random(f"{seed}:{move}")
        return self._random

    def sql_random_seed(self) -> int:
        """The seed of a statement's ``RAND()``, from this request's random source."""
        return self.random.randrange(1, RAND_MODULUS)

    def bga_rand(self, low: int, high: int) -> int:
        """A random integer in ``low..high`` inclusive (BGA's ``bga_rand``)."""
        return self.random.randint(low, high)

    # ----------------------------------------------------------------- undo
    def undo_savepoint(self) -> None:
        """Keep the table as it is at the end of this request as the undo point."""
        self._ctx.savepoint_requested = True

    def undo_restore_point(self) -> None:
        """Go back to the undo point at the end of this request (this request's changes are lost)."""
        self._ctx.restore_requested = True

    # ----------------------------------------------------------------- actions
    def check_action(self, action: str, throw_exception: bool = True, *,
                     can_be_zombie: bool = False) -> bool:
        """The current player's state (their private state, if they are in one) allows
        ``action`` and the current player is active. ``throw_exception=False``: answer False
        instead of raising.

        Raises:
            UserError: the action is not allowed now, or it is not this player's turn.
        """
        pid = self._ctx.current_player_id
        state = self.gamestate.get_current_state(pid)
        if action not in state.possible_actions:
            if not throw_exception:
                return False
            raise UserError(
                "This move is not allowed now (${action} in state ${state})",
                "not_allowed_in_state", action=action, state=state.name,
            )
        if pid is None:
            return True
        if pid not in self.gamestate.get_active_player_list():
            if not throw_exception:
                return False
            raise NotYourTurnError("It is not your turn", "not_your_turn")
        return True

    def st_make_everyone_active(self) -> None:
        """A state action for a multiactive state: every player still in the game is active
        (BGA's ``stMakeEveryoneActive``)."""
        self.gamestate.set_all_players_multiactive()

    def state_args(self, state: State, player_id: int | None = None) -> dict[str, Any]:
        """The ``arg_*`` of ``state`` (private parts under ``_private``), checked to be a dict.
        A private state's ``arg_*`` receives ``player_id`` (whose private state it is)."""
        if not state.args:
            return {}
        method: Callable[..., Any] = getattr(self, state.args)
        if state.state_type is StateType.PRIVATE:
            if player_id is None:
                raise GameSystemError(f"state_args: private state {state.name!r} needs a player")
            result = method(player_id)
        else:
            result = method()
        if result is None:
            return {}
        if not isinstance(result, dict):
            raise GameSystemError(f"{state.args} must return a dict, not {type(result).__name__}")
        return result
