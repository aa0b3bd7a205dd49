"""Today's BGA style: state classes compile to the classic state machine and play on the
same runtime, with their arguments bound by name and typed like classic actions."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from framework.core.errors import GameSystemError, UserError
from framework.game.modern import GameState, StateType, possible_action
from framework.game.registry import GameDefinition, GameInfo, GameRegistry, build_definition
from framework.game.states import State
from framework.game.stats import Stat
from framework.game.table import ActionContext, Table
from framework.testing import GameHarness, TestTable

ROUNDS = 3


class Tally(Table):
    """Take 1 to 3 credits or pass, for three rounds each."""

    def __init__(self, ctx: ActionContext) -> None:
        super().__init__(ctx)
        self.credits = self.counter_factory.create_player_counter("credits", max=12)
        self.round = self.counter_factory.create_table_counter("round", default_value=1)
        self.notify.add_decorator(self.add_player_name)

    def add_player_name(self, message: str, args: dict[str, Any]) -> dict[str, Any]:
        if "player_id" in args and "player_name" not in args:
            args["player_name"] = self.get_player_name_by_id(args["player_id"])
        return args

    def setup_new_game(self, players: Mapping[int, Any], options: Mapping[int, int]) -> Any:
        self.credits.init_db(players)
        self.round.init_db()
        self.table_stats.init("moves", 0)
        self.player_stats.init(["taken"], 0)
        self.globals.set("history", [])
        return PlayerTurn

    def get_all_datas(self, player_id: int | None) -> dict[str, Any]:
        result: dict[str, Any] = {}
        self.credits.fill_result(result)
        self.round.fill_result(result)
        return result


class PlayerTurn(GameState):
    def __init__(self, game: Tally) -> None:
        super().__init__(
            game, id=2, type=StateType.ACTIVE_PLAYER,
            description="${actplayer} must take credits or pass",
            description_my_turn="${you} must take credits or pass",
        )
        self.tally = game

    def get_args(self, active_player_id: int) -> dict[str, Any]:
        return {"credits": self.tally.credits.get(active_player_id)}

    @possible_action
    def act_take(self, amount: int, active_player_id: int, args: dict[str, Any]) -> Any:
        if not 1 <= amount <= 3:
            raise UserError("Take 1 to 3 credits", "bad_amount")
        assert args["credits"] == self.tally.credits.get(active_player_id)
        self.tally.credits.inc(active_player_id, amount, "${player_name} takes ${inc}")
        self.player_stats.inc("taken", active_player_id, amount)
        self.globals.set("history", [*self.globals.get("history"), [active_player_id, amount]])
        return NextPlayer

    @possible_action
    def act_pass(self, current_player_id: int) -> Any:
        self.notify.all("pass", "${player_name} passes", player_id=current_player_id)
        return "NextPlayer"

    def zombie(self, player_id: int) -> Any:
        self.tally.credits.inc(player_id, 1, None)
        return NextPlayer


class NextPlayer(GameState):
    id = 3
    type = StateType.GAME
    update_game_progression = True

    def on_entering_state(self, active_player_id: int) -> Any:
        game = self.game
        self.table_stats.inc("moves")
        players = list(game.load_players_basic_infos())
        if active_player_id == players[-1]:
            if game.round.get() >= ROUNDS:  # type: ignore[attr-defined]
                return 99
            game.round.inc(1)  # type: ignore[attr-defined]
        game.active_next_player()
        return PlayerTurn


STATS = [Stat(10, "moves", "Moves", "int", "table"), Stat(10, "taken", "Taken", "int", "player")]


def tally_definition(states: list[Any] | None = None, table_cls: type[Table] = Tally,
                     name: str = "tally") -> GameDefinition:
    info = GameInfo(name=name, display_name=name.title(), min_players=2, max_players=3)
    return build_definition(info, table_cls, states or [PlayerTurn, NextPlayer], STATS)


@pytest.fixture
def harness(tmp_path: Path) -> Iterator[GameHarness]:
    registry = GameRegistry(packages={})
    registry.add_definition(tally_definition())
    with GameHarness("tally", tmp_path, registry) as h:
        yield h


def play_to_end(table: TestTable) -> int:
    moves = 0
    while not table.is_over:
        table.act(table.active_player, "take" if moves % 2 == 0 else "pass",
                  **({"amount": "2"} if moves % 2 == 0 else {}))
        moves += 1
        assert moves < 100
    return moves


def test_state_classes_compile_to_the_classic_state_machine() -> None:
    gdef = tally_definition()
    states = {s.id: s for s in gdef.states}
    assert sorted(states) == [1, 2, 3, 99]
    assert states[1].transitions == {"": 2}
    turn, nxt = states[2], states[3]
    assert (turn.name, turn.state_type, nxt.name, nxt.state_type) == (
        "PlayerTurn", StateType.ACTIVE_PLAYER, "NextPlayer", StateType.GAME)
    assert list(turn.possible_actions) == ["pass", "take"]
    # The next states its methods return, read when the game loads, are its transitions.
    assert turn.transitions == {"NextPlayer": 3}
    assert nxt.transitions == {"gameEnd": 99, "PlayerTurn": 2}
    assert nxt.update_game_progression
    assert turn.to_json()["descriptionmyturn"] == "${you} must take credits or pass"


def test_a_state_class_game_plays_to_its_end(harness: GameHarness) -> None:
    table = harness.create_table(players=2, seed=1)
    a, b = table.players
    assert table.state.name == "PlayerTurn" and table.active_player == a
    assert table.data(a)["gamestate"]["args"] == {"credits": 0}
    moves = play_to_end(table)
    assert moves == 2 * ROUNDS
    data = table.data(None)
    # a and b alternate "take 2" and "pass": a took in every round, b never did
    assert data["players"][str(a)]["credits"] == 2 * ROUNDS
    assert data["players"][str(b)]["credits"] == 0 and data["round"] == ROUNDS
    assert table.stat("taken", a) == 2 * ROUNDS and table.stat("taken", b) == 0
    assert table.stat("moves") == moves
    with table.read() as t:
        assert t.globals.get("history") == [[a, 2]] * ROUNDS
        assert t.round.get() == ROUNDS
    logs = [n for n in table.notifications(b) if n["type"] == "setPlayerCounter"]
    assert logs and logs[0]["args"]["name"] == "credits" and logs[0]["args"]["inc"] == 2


def test_action_arguments_are_converted_and_checked_like_classic_ones(harness: GameHarness) -> None:
    table = harness.create_table(players=2, seed=1)
    a, b = table.players
    assert "must be a whole number" in str(table.act_expecting_error(a, "take", amount="lots"))
    assert "needs the argument amount" in str(table.act_expecting_error(a, "take"))
    # The framework's own parameters are not arguments a player can send.
    error = table.act_expecting_error(a, "take", amount=1, active_player_id=b)
    assert "has no argument active_player_id" in str(error)
    assert "not your turn" in str(table.act_expecting_error(b, "take", amount=1))
    assert "Take 1 to 3 credits" in str(table.act_expecting_error(a, "take", amount=5))
    with table.read() as t:
        assert t.credits.get(a) == 0  # the refused moves changed nothing


def test_zombie_turns_of_a_state_class(harness: GameHarness) -> None:
    table = harness.create_table(players=2, seed=1)
    a, b = table.players
    table.zombie(b)
    while not table.is_over:
        table.act(a, "pass")
    with table.read() as t:
        assert t.credits.get(b) == ROUNDS  # one per zombie turn, without notifications


class Classic(Table):
    """A game that mixes a classic state (3) with a state class (2)."""

    def setup_new_game(self, players: Mapping[int, Any], options: Mapping[int, int]) -> None:
        self.table_stats.init("moves", 0)
        self.player_stats.init("taken", 0)

    def st_next(self) -> None:
        if self.table_stats.inc("moves") >= 4:
            self.gamestate.next_state("end")
        else:
            self.active_next_player()
            self.gamestate.next_state("again")


class MixedTurn(GameState):
    def __init__(self, game: Table) -> None:
        super().__init__(game, id=2, type=StateType.ACTIVE_PLAYER, transitions={"done": 3})

    @possible_action
    def act_done(self) -> Any:
        return "done"


def test_a_game_may_mix_classic_states_and_state_classes(tmp_path: Path) -> None:
    states = [MixedTurn, State(3, "next", StateType.GAME, action="st_next",
                               transitions={"again": 2, "end": 99})]
    info = GameInfo(name="mixed", display_name="Mixed", min_players=2, max_players=2)
    gdef = build_definition(info, Classic, states, STATS)
    registry = GameRegistry(packages={})
    registry.add_definition(gdef)
    with GameHarness("mixed", tmp_path, registry) as h:
        table = h.create_table(players=2)
        moves = 0
        while not table.is_over:
            table.act(table.active_player, "done")
            moves += 1
        assert moves == 4 and table.stat("moves") == 4


# ------------------------------------------------------------------ bad input, at load time
class NoId(GameState):
    type = StateType.GAME

    def on_entering_state(self) -> Any:
        return 99


class NoType(GameState):
    id = 5

    def on_entering_state(self) -> Any:
        return 99


class SameId(GameState):
    def __init__(self, game: Table) -> None:
        super().__init__(game, id=2, type=StateType.GAME)

    def on_entering_state(self) -> Any:
        return 99


class GoesNowhere(GameState):
    def __init__(self, game: Table) -> None:
        super().__init__(game, id=4, type=StateType.ACTIVE_PLAYER)

    @possible_action
    def act_jump(self) -> Any:
        return Nowhere  # type: ignore[name-defined]  # noqa: F821


class Unlisted(GameState):
    id = 7
    type = StateType.GAME

    def on_entering_state(self) -> Any:
        return 99


class ReturnsUnlisted(GameState):
    id = 4
    type = StateType.ACTIVE_PLAYER

    @possible_action
    def act_go(self) -> Any:
        return Unlisted


class Orphan(GameState):
    id = 8
    type = StateType.PRIVATE

    @possible_action
    def act_choose(self) -> Any:
        return "Orphan"


class Together(GameState):
    id = 6
    type = StateType.MULTIPLE_ACTIVE_PLAYER

    @possible_action
    def act_ready(self) -> Any:
        return 99


class Choosing(GameState):
    id = 9
    type = StateType.PRIVATE
    transitions = {"again": 9}

    @possible_action
    def act_choose(self) -> Any:
        return None


class TogetherWithPrivate(GameState):
    id = 6
    type = StateType.MULTIPLE_ACTIVE_PLAYER
    initial_private = Choosing

    @possible_action
    def act_ready(self) -> Any:
        return 99


class BadMagic(GameState):
    id = 4
    type = StateType.GAME

    def on_entering_state(self, cards: int) -> Any:
        return 99


@pytest.mark.parametrize(("states", "message"), [
    ([NoId, PlayerTurn, NextPlayer], "game 'tally', state class 'NoId', field 'id': missing"),
    ([NoType, PlayerTurn, NextPlayer], "game 'tally', state class 'NoType', field 'type': missing"),
    ([PlayerTurn, NextPlayer, SameId],
     "game 'tally', state class 'SameId', field 'id': id 2 is also the id of state class 'PlayerTurn'"),
    ([PlayerTurn, NextPlayer, GoesNowhere],
     "game 'tally', state class 'GoesNowhere', field 'act_jump': returns Nowhere, which is not a state"),
    ([PlayerTurn, NextPlayer, ReturnsUnlisted],
     "state class 'ReturnsUnlisted', field 'act_go': returns Unlisted, which is not a state"),
    ([PlayerTurn, NextPlayer, Together, Orphan],
     "game 'tally', state class 'Orphan', field 'type': a private state named in no transition"),
    ([PlayerTurn, NextPlayer, BadMagic],
     "state class 'BadMagic', field 'on_entering_state': parameter 'cards' is not one the framework fills"),
])
def test_bad_state_classes_fail_when_the_game_loads(states: list[Any], message: str) -> None:
    class Fresh(Tally):
        pass

    with pytest.raises(Exception) as err:
        tally_definition(states, Fresh)
    assert message in str(err.value)


def test_a_private_state_named_by_initial_private_loads() -> None:
    class Fresh(Tally):
        pass

    gdef = tally_definition([PlayerTurn, NextPlayer, TogetherWithPrivate, Choosing], Fresh)
    assert gdef.states[6].initial_private == 9
    assert gdef.states[9].state_type is StateType.PRIVATE


def test_a_returned_state_unknown_at_load_fails_when_it_runs(tmp_path: Path) -> None:
    class Dynamic(GameState):
        id = 2
        type = StateType.ACTIVE_PLAYER
        transitions = {"end": 99}

        @possible_action
        def act_go(self, where: str) -> Any:
            return where  # known only when it runs

    info = GameInfo(name="dyn", display_name="Dyn", min_players=2, max_players=2)
    registry = GameRegistry(packages={})

    class DynTable(Table):
        pass

    registry.add_definition(build_definition(info, DynTable, [Dynamic], []))
    with GameHarness("dyn", tmp_path, registry) as h:
        table = h.create_table(players=2)
        with pytest.raises(UserError) as err:
            table.act(table.active_player, "go", where="Atlantis")
        assert err.value.code == "game_error"
        assert table.state.name == "Dynamic"  # the move was cancelled
        table.act(table.active_player, "go", where="end")
        assert table.is_over


def test_a_counter_used_before_init_db_names_the_game_the_class_and_the_field(tmp_path: Path) -> None:
    class Forgetful(Tally):
        def setup_new_game(self, players: Mapping[int, Any], options: Mapping[int, int]) -> Any:
            self.round.init_db()
            self.credits.get(next(iter(players)))

    registry = GameRegistry(packages={})
    registry.add_definition(tally_definition(table_cls=Forgetful, name="forgetful"))
    with GameHarness("forgetful", tmp_path, registry) as h, pytest.raises(GameSystemError) as err:
        h.create_table(players=2)
    assert ("game 'forgetful', PlayerCounter 'credits', field 'init_db': used before init_db"
            in str(err.value))


class SecretTurn(GameState):
    id = 2
    type = StateType.ACTIVE_PLAYER

    def get_args(self, active_player_id: int) -> dict[str, Any]:
        return {"count": 2, "_private": {"active": {"secret": f"hand-of-{active_player_id}"}}}

    @possible_action
    def act_done(self) -> Any:
        return 99


def test_private_args_of_a_state_class_reach_only_their_player(tmp_path: Path) -> None:
    class SecretTable(Table):
        pass

    info = GameInfo(name="secret", display_name="Secret", min_players=2, max_players=2)
    registry = GameRegistry(packages={})
    registry.add_definition(build_definition(info, SecretTable, [SecretTurn], []))
    with GameHarness("secret", tmp_path, registry) as h:
        table = h.create_table(players=2)
        a, b = table.players
        assert table.data(a)["gamestate"]["args"]["_private"] == {"secret": f"hand-of-{a}"}
        for viewer in (b, None):
            assert f"hand-of-{a}" not in str(table.data(viewer))
            assert f"hand-of-{a}" not in str(table.notifications(viewer))
        assert f"hand-of-{a}" in str(table.notifications(a))
