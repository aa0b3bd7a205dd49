"""Every key of BGA's gameinfos.inc.php has a home in ``GameInfo``: read from a port of the
file, given back by ``Table.get_gameinfos``, checked when the game loads."""

from __future__ import annotations

from typing import Any

import pytest

from framework.core.errors import ConfigError, UserError
from framework.game.gameinfo import GAMEINFOS_KEYS, GameInfo
from framework.game.registry import build_definition
from framework.game.states import State, StateType, end_state, setup_state
from framework.game.table import Table

#: a gameinfos.inc.php with every key, ported as a Python dict
FULL: dict[str, Any] = {
    "game_name": "Rug Market", "designer": "A. Designer", "artist": "B. Artist", "year": 2007,
    "publisher": "Pub", "publisher_website": "https://pub.example/", "publisher_bgg_id": 155,
    "bgg_id": 29223, "players": [3, 4, 6], "suggest_player_number": 4,
    "not_recommend_player_number": [6], "estimated_duration": 35, "fast_additional_time": 30,
    "medium_additional_time": 40, "slow_additional_time": 50,
    "tie_breaker_description": "Number of coins", "losers_not_ranked": True,
    "solo_mode_ranked": False, "is_beta": 1, "is_coop": 0, "language_dependency": ["fr", "it"],
    "complexity": 1, "luck": 4, "strategy": 2, "diplomacy": 1,
    "player_colors": ["FF0000", "008000", "0000ff", "ffa500", "773300", "000000"],
    "favorite_colors_support": True, "disable_player_order_swap_on_rematch": True,
    "game_interface_width": {"min": 720, "max": 1200}, "presentation": ["One.", "Two."],
    "tags": [2, 11, 206], "custom_buy_button": {"url": "https://buy.example/", "label": "Shop"},
    "db_undo_support": True, "enable_3d": False, "is_sandbox": False, "turnControl": "simple",
}


def test_the_full_example_has_every_key() -> None:
    assert set(FULL) == set(GAMEINFOS_KEYS)


def test_every_key_survives_the_round_trip() -> None:
    info = GameInfo.from_gameinfos("rugmarket", FULL, reflexion_time_s=300)
    back = info.to_gameinfos()
    assert set(back) == set(GAMEINFOS_KEYS)
    expected = dict(FULL, player_colors=[c.lower() for c in FULL["player_colors"]])
    assert back == expected
    assert info.players == (3, 4, 6) and info.min_players == 3 and info.max_players == 6
    assert info.reflexion_time_s == 300 and info.extra_time_s == 40


def test_a_discontinuous_player_count_is_refused_at_table_creation() -> None:
    info = GameInfo.from_gameinfos("rugmarket", FULL)
    states = [setup_state(2), State(2, "t", StateType.ACTIVE_PLAYER, possible_actions=["go"],
                                    transitions={"": 99}), end_state()]
    cls = type("RugTable", (Table,), {"act_go": lambda self: None})
    definition = build_definition(info, cls, states)
    definition.check_player_count(6)
    with pytest.raises(UserError, match="is played by 3, 4, 6 players, not 5"):
        definition.check_player_count(5)


@pytest.mark.parametrize(("changes", "message"), [
    ({"colour": "red"}, "unknown keys \\['colour'\\]"),
    ({"is_sandbox": True}, "'is_sandbox': BGA's sandbox has no Arena form"),
    ({"turnControl": "circuit"}, "'turnControl': BGA's sandbox has no Arena form"),
    ({"complexity": 7}, "field 'complexity': 7 is not 0..5"),
    ({"player_colors": ["ff0000", "nope"]}, "field 'player_colors': 'nope' is not"),
    ({"player_colors": ["ff0000"]}, "field 'player_colors': 1 colours for up to 6 players"),
    ({"suggest_player_number": 5}, "field 'suggested_players': 5 players is not a count"),
    ({"tags": ["short"]}, "field 'tags'"),
    ({"game_interface_width": {"min": 740, "max": 500}}, "field 'interface_max_width'"),
])
def test_bad_gameinfos_are_refused_naming_the_field(changes: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError, match="game 'rugmarket'.*" + message):
        GameInfo.from_gameinfos("rugmarket", {**FULL, **changes})


def test_game_name_and_players_are_required() -> None:
    with pytest.raises(ConfigError, match="needs game_name and players"):
        GameInfo.from_gameinfos("rugmarket", {"game_name": "Rug Market"})
