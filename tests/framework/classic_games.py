"""Small games written in the test files' own terms (``build_definition``), for the classic
API's tests: private parallel states, the card-type trap, zombies that fail."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from framework.core.errors import UserError
from framework.game.deck import Deck
from framework.game.gameinfo import GameInfo
from framework.game.registry import GameDefinition, GameRegistry, build_definition
from framework.game.states import State, StateType, end_state, setup_state
from framework.game.table import ActionContext, Table
from framework.testing import GameHarness
from tests.backends import PlatformTemplate

SECRET_DBMODEL = """
CREATE TABLE IF NOT EXISTS `secret` (
  `secret_player` int(10) unsigned NOT NULL,
  `secret_code` int(11) NOT NULL,
  `secret_choice` int(11) NOT NULL DEFAULT 0,
  `secret_entered` int(11) NOT NULL DEFAULT 0,
  PRIMARY KEY (`secret_player`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8;
"""

SECRET_STATES = [
    setup_state(2),
    State(2, "plan", StateType.MULTIPLE_ACTIVE_PLAYER, description="Everyone plans",
          description_my_turn="${you} must plan", action="st_plan", possible_actions=["skip"],
          transitions={"done": 3}, initial_private=10),
    State(10, "chooseFirst", StateType.PRIVATE, description_my_turn="${you} must choose",
          action="st_choose_first", args="arg_choose_first", possible_actions=["choose"],
          transitions={"next": 11}),
    State(11, "confirm", StateType.PRIVATE, description_my_turn="${you} must confirm ${choice}",
          args="arg_confirm", possible_actions=["confirm", "back"], transitions={"back": 10}),
    State(3, "reveal", StateType.GAME, action="st_reveal", transitions={"end": 99}),
    end_state(),
]


class SecretGame(Table):
    """Each player has a secret code; in the multiactive ``plan`` state each moves through
    private states of their own (choose, then confirm or go back), seeing only their code."""

    FAIL_ZOMBIE = False

    def setup_new_game(self, players: Any, options: Any) -> None:
        for pid in players:
            self.db_query("INSERT INTO secret (secret_player, secret_code) VALUES (%s, %s)",
                          (pid, self.bga_rand(100000, 999999)))

    def code(self, player_id: int) -> int:
        return int(self.get_unique_value_from_db(
            "SELECT secret_code FROM secret WHERE secret_player = %s", (player_id,)))

    def st_plan(self) -> None:
        self.gamestate.set_all_players_multiactive()
        self.gamestate.initialize_private_state_for_all_active_players()

    def st_choose_first(self, player_id: int) -> None:
        self.db_query("UPDATE secret SET secret_entered = secret_entered + 1 WHERE secret_player = %s",
                      (player_id,))

    def arg_choose_first(self, player_id: int) -> dict[str, Any]:
        return {"code": self.code(player_id)}

    def arg_confirm(self, player_id: int) -> dict[str, Any]:
        choice = self.get_unique_value_from_db(
            "SELECT secret_choice FROM secret WHERE secret_player = %s", (player_id,))
        return {"code": self.code(player_id), "choice": int(choice)}

    def act_skip(self) -> None:
        self.check_action("skip")

    def act_choose(self, value: int) -> None:
        self.check_action("choose")
        self._choose(self.get_current_player_id(), value)

    def _choose(self, player_id: int, value: int) -> None:
        if not 1 <= value <= 9:
            raise UserError("Choose 1 to 9", "bad_choice")
        self.db_query("UPDATE secret SET secret_choice = %s WHERE secret_player = %s", (value, player_id))
        self.gamestate.next_private_state(player_id, "next")

    def act_back(self) -> None:
        self.check_action("back")
        self.gamestate.next_private_state(self.get_current_player_id(), "back")

    def act_confirm(self) -> None:
        self.check_action("confirm")
        self._confirm(self.get_current_player_id())

    def _confirm(self, player_id: int) -> None:
        self.gamestate.unset_private_state(player_id)
        self.gamestate.set_player_non_multiactive(player_id, "done")

    def st_reveal(self) -> None:
        rows = self.get_collection_from_db("SELECT secret_player, secret_choice FROM secret", single=True)
        self.notify_all_players("reveal", "", choices={str(k): int(v) for k, v in rows.items()})
        self.gamestate.next_state("end")

    def zombie_turn(self, state: State, active_player: int) -> None:
        if self.FAIL_ZOMBIE:
            raise RuntimeError(f"zombie_turn fails on purpose in {state.name}")
        if state.name == "chooseFirst":
            self._choose(active_player, 5)
        elif state.name == "confirm":
            self._confirm(active_player)
        else:
            self.gamestate.set_player_non_multiactive(active_player, "done")


TRAP_DBMODEL = """
CREATE TABLE IF NOT EXISTS `card` (
  `card_id` int(10) unsigned NOT NULL AUTO_INCREMENT,
  `card_type` varchar(16) NOT NULL,
  `card_type_arg` int(11) NOT NULL,
  `card_location` varchar(16) NOT NULL,
  `card_location_arg` int(11) NOT NULL,
  PRIMARY KEY (`card_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8 AUTO_INCREMENT=1;
"""

TRAP_STATES = [
    setup_state(2),
    State(2, "playCard", StateType.ACTIVE_PLAYER, description_my_turn="${you} must play a card",
          possible_actions=["play"], transitions={"next": 3, "end": 99}),
    State(3, "nextPlayer", StateType.GAME, action="st_next_player", transitions={"next": 2}),
    end_state(),
]


class CardTrap(Table):
    """A port that scores a card whose type is 2 the PHP way: ``card["type"] == 2``."""

    INT_TYPE = False
    FAIL_BOT = False
    FAIL_DATAS = False

    def __init__(self, ctx: ActionContext) -> None:
        super().__init__(ctx)
        self.cards = Deck(self, "card", int_type=self.INT_TYPE)

    def get_all_datas(self, player_id: int | None) -> dict[str, Any]:
        if self.FAIL_DATAS:
            raise KeyError("get_all_datas fails on purpose")
        viewer = self.get_current_player_id(True)
        return {"viewer": viewer, "spectator": self.is_spectator(),
                "hand": self.cards.get_player_hand(player_id) if player_id is not None else {}}

    def bot_turn(self, state: State, active_player: int) -> None:
        if self.FAIL_BOT:
            raise RuntimeError("bot_turn fails on purpose")
        card = next(iter(self.cards.get_player_hand(active_player)))
        self.context.current_player_id = active_player
        try:
            self.act_play(card)
        finally:
            self.context.current_player_id = None

    def setup_new_game(self, players: Any, options: Any) -> None:
        self.cards.create_cards([{"type": t, "type_arg": 1, "nbr": 2} for t in (1, 2, 3)], "deck")
        for pid in players:
            self.cards.pick_cards(3, "deck", pid)
        self.active_next_player()

    def act_play(self, card_id: int) -> None:
        self.check_action("play")
        pid = self.get_current_player_id()
        card = self.cards.get_cards_from_location([card_id], "hand", pid)[card_id]
        self.cards.play_card(card_id)
        if card["type"] == 2:  # PHP: "2" == 2 is true
            self.db_query("UPDATE player SET player_score = player_score + 1 WHERE player_id = %s", (pid,))
        if self.get_player_scores()[pid][0] >= 1:
            self.gamestate.next_state("end")
        else:
            self.gamestate.next_state("next")

    def st_next_player(self) -> None:
        self.active_next_player()
        self.gamestate.next_state("next")


class CardTrapInt(CardTrap):
    """The same port with the documented option: the deck's types are ints."""

    INT_TYPE = True


def secret_definition() -> GameDefinition:
    cls = type("SecretGameT", (SecretGame,), {})
    return build_definition(GameInfo(name="secretgame", display_name="Secret Game", min_players=2,
                                     max_players=4), cls, SECRET_STATES, dbmodel=SECRET_DBMODEL)


def trap_definition(int_type: bool) -> GameDefinition:
    cls = type("CardTrapT", (CardTrapInt if int_type else CardTrap,), {})
    return build_definition(GameInfo(name="cardtrap", display_name="Card Trap", min_players=2,
                                     max_players=2), cls, TRAP_STATES, dbmodel=TRAP_DBMODEL)


@contextmanager
def harness_for(definition: GameDefinition, tmp_path: Path, template: PlatformTemplate,
                database_url: str | None = None) -> Iterator[GameHarness]:
    """A private site with ``definition`` as its only game."""
    registry = GameRegistry(packages={})
    registry.add_definition(definition)
    template.seed(tmp_path / "instance", database_url)
    with GameHarness(definition.name, tmp_path, registry=registry, database_url=database_url) as h:
        yield h
