"""Statistics and options are validated at load; option values are checked at table creation."""

from __future__ import annotations

import pytest

from framework.core.errors import ConfigError, UserError
from framework.game.options import Option, OptionCatalog, OptionValue, Preference
from framework.game.stats import Stat, StatCatalog


@pytest.mark.parametrize(
    ("stats", "message"),
    [
        ([Stat(9, "low", "Low")], "field 'id': ids below 10 are reserved (got 9)"),
        ([Stat(10, "a", "A"), Stat(10, "b", "B")], "field 'id': id 10 is already used by 'a'"),
        ([Stat(10, "a", "A", type="text")], "field 'type': 'text' is not int, float or bool"),  # type: ignore[arg-type]
        ([Stat(10, "a", "A", scope="team")], "field 'scope'"),  # type: ignore[arg-type]
        ([Stat(10, "a b", "A")], "field 'key': not an identifier"),
        ([Stat(10, "a", "A"), Stat(11, "a", "A2")], "field 'key': declared twice"),
    ],
)
def test_bad_statistics(stats: list[Stat], message: str) -> None:
    with pytest.raises(ConfigError) as err:
        StatCatalog("demo", stats)
    assert "game 'demo'" in str(err.value) and message in str(err.value)


def test_table_and_player_stats_may_share_an_id() -> None:
    cat = StatCatalog("demo", [Stat(10, "turns", "Turns", scope="table"), Stat(10, "points", "Points")])
    assert cat.get("table", "turns").id == cat.get("player", "points").id == 10


def test_stat_types_coerce_and_refuse() -> None:
    flag = Stat(12, "flag", "Flag", "bool")
    assert flag.coerce(True) == 1.0 and flag.to_python(1.0) is True
    count = Stat(13, "count", "Count", "int")
    with pytest.raises(TypeError):
        count.coerce("3")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        count.coerce(True)


def option(**changes: object) -> Option:
    fields: dict[str, object] = dict(id=100, key="target", name="Target",
                                     values={1: OptionValue("Short"), 2: "Long"}, default=1)
    fields.update(changes)
    return Option(**fields)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ([option(id=99)], "option ids are 100..199 (got 99)"),
        ([option(id=200)], "option ids are 100..199 (got 200)"),
        ([option(), option(key="other")], "id 100 is used twice"),
        ([option(default=3)], "field 'default': 3 is not a value"),
        ([option(values={})], "an option needs values"),
    ],
)
def test_bad_options(options: list[Option], message: str) -> None:
    with pytest.raises(ConfigError, match="game 'demo'") as err:
        OptionCatalog("demo", options)
    assert message in str(err.value)


def test_bad_preferences() -> None:
    with pytest.raises(ConfigError, match="preference ids are >= 100"):
        OptionCatalog("demo", [], [Preference(5, "faces", "Faces", {1: "a"}, 1)])


def test_option_resolution() -> None:
    cat = OptionCatalog("demo", [option()])
    assert cat.resolve({}) == {100: 1}
    assert cat.resolve({"100": "2"}) == {100: 2}
    assert cat.resolve({"target": 2}) == {100: 2}
    with pytest.raises(UserError, match=r"Option Target has no value 3; choose one of: 1 \(Short\), 2 \(Long\)"):
        cat.resolve({100: 3})
    with pytest.raises(UserError, match="Game demo has no option 150"):
        cat.resolve({150: 1})
    with pytest.raises(UserError, match="Option Target needs a whole number, not x"):
        cat.resolve({100: "x"})
