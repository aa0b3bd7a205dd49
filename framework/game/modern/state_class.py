"""``GameState``: one class per state (BGA's ``modules/php/States/*.php``), its
``possible_action`` methods, and the ``StateType`` they declare."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from framework.game.states import StateType

if TYPE_CHECKING:
    from framework.game.deck import Deck
    from framework.game.gamestate import GameStateMachine
    from framework.game.modern.counters import CounterFactory
    from framework.game.modern.globals_api import Globals
    from framework.game.modern.legacy import Legacy
    from framework.game.modern.logs import Logs
    from framework.game.modern.notify import Notify
    from framework.game.modern.stats_api import PlayerStats, TableStats
    from framework.game.modern.table_options import TableOptions
    from framework.game.modern.user_preferences import UserPreferences
    from framework.game.table import Table

__all__ = ["GameState", "StateType", "possible_action", "is_possible_action"]

F = TypeVar("F", bound=Callable[..., Any])

_ACTION_MARK = "__arena_possible_action__"

def possible_action(method: F) -> F:
    """Mark an ``act_*`` method of a state class as an action players may send
    (BGA's ``#[PossibleAction]``). The action's name is the method's without ``act_``."""
    if not callable(method):
        raise TypeError("possible_action decorates a method")
    setattr(method, _ACTION_MARK, True)
    return method


def is_possible_action(value: Any) -> bool:
    return callable(value) and bool(getattr(value, _ACTION_MARK, False))


class GameState:
    """Base class of a state class. Declare the state in ``__init__``, as BGA does::

        class PlayerTurn(GameState):
            def __init__(self, game: MyGame) -> None:
                super().__init__(game, id=2, type=StateType.ACTIVE_PLAYER,
                                 description=clienttranslate("${actplayer} must play"),
                                 description_my_turn=clienttranslate("${you} must play"))

    or with class attributes of the same names (``id = 2``, ``type = StateType.GAME``...).

    Optional methods, whose parameters are filled by name (``active_player_id``,
    ``current_player_id``, ``args``; ``player_id`` too for ``zombie``): ``get_args``,
    ``on_entering_state``, ``zombie`` and ``@possible_action`` ``act_*`` methods, whose other
    parameters are the action's arguments, typed. ``on_entering_state``, ``zombie`` and the
    actions return the next state: a state class, an id or a name (None: stay).
    """

    id: ClassVar[int | None] = None
    type: ClassVar[StateType | str | None] = None
    name: ClassVar[str | None] = None
    description: ClassVar[str] = ""
    description_my_turn: ClassVar[str] = ""
    transitions: ClassVar[Mapping[str, Any]] = {}
    update_game_progression: ClassVar[bool] = False
    initial_private: ClassVar[Any] = None

    def __init__(
        self,
        game: Any,
        *,
        id: int | None = None,  # noqa: A002 - BGA's name
        type: StateType | str | None = None,  # noqa: A002 - BGA's name
        name: str | None = None,
        description: str | None = None,
        description_my_turn: str | None = None,
        transitions: Mapping[str, Any] | None = None,
        update_game_progression: bool | None = None,
        initial_private: Any = None,
    ) -> None:
        self.game: Table = game
        declared = {
            "id": id, "type": type, "name": name, "description": description,
            "description_my_turn": description_my_turn, "transitions": transitions,
            "update_game_progression": update_game_progression,
            "initial_private": initial_private,
        }
        for key, value in declared.items():
            if value is not None:
                # The instance's declaration shadows the class attribute.
                object.__setattr__(self, key, value)

    # ------------------------------------------------------------ the game's objects
    @property
    def gamestate(self) -> GameStateMachine:
        return self.game.gamestate

    @property
    def globals(self) -> Globals:
        return self.game.globals

    @property
    def notify(self) -> Notify:
        return self.game.notify

    @property
    def table_stats(self) -> TableStats:
        return self.game.table_stats

    @property
    def player_stats(self) -> PlayerStats:
        return self.game.player_stats

    @property
    def counter_factory(self) -> CounterFactory:
        return self.game.counter_factory

    @property
    def table_options(self) -> TableOptions:
        return self.game.table_options

    @property
    def user_preferences(self) -> UserPreferences:
        return self.game.user_preferences

    @property
    def legacy(self) -> Legacy:
        return self.game.legacy

    @property
    def logs(self) -> Logs:
        return self.game.logs

    def deck(self, name: str = "card") -> Deck:
        """A ``Deck`` on the game's table ``name`` (``DeckFactory.create_deck``)."""
        return self.game.deck_factory.create_deck(name)
