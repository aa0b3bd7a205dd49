"""What a statement writes (``framework.storage.sql.writes``), as the Table's caches need it."""

from __future__ import annotations

import pytest

from framework.storage.sql.writes import analyse_writes

CACHED = ("player_zombie", "player_is_multiactive", "player_name")


@pytest.mark.parametrize("sql", [
    "SELECT * FROM player",
    "select player_id from player for update",
    "(SELECT 1) UNION (SELECT 2)",
    "-- a comment first\nSELECT 1",
    "WITH x AS (SELECT 1 AS y) SELECT * FROM x",
])
def test_reads_write_nothing(sql: str) -> None:
    assert analyse_writes(sql) is None


@pytest.mark.parametrize(("sql", "table"), [
    ("INSERT INTO pick (pick_player, pick_value) VALUES (%s, %s)", "pick"),
    ("INSERT IGNORE INTO `player` (player_id) VALUES (%s)", "player"),
    ("REPLACE INTO global VALUES (10, 3)", "global"),
    ("INSERT INTO card SELECT * FROM player", "card"),
    ("DELETE FROM card WHERE card_id IN (SELECT player_id FROM player)", "card"),
    ("DELETE p FROM player p JOIN card c ON c.card_location_arg = p.player_id", "player"),
])
def test_row_writes_name_only_the_written_table(sql: str, table: str) -> None:
    writes = analyse_writes(sql)
    assert writes is not None and writes.rows == {table} and not writes.is_ddl
    assert writes.may_change(table, CACHED)
    others = {"player", "global", "card", "pick"} - {table}
    assert not any(writes.may_change(other) for other in others)


def test_an_update_changes_only_the_columns_it_sets() -> None:
    scores = analyse_writes("UPDATE player SET player_score = player_score + 1 WHERE player_zombie = 0")
    assert scores is not None
    assert scores.may_change("player") and not scores.may_change("player", CACHED)
    assert analyse_writes("UPDATE `Player` SET `Player_Zombie` = 1").may_change(  # type: ignore[union-attr]
        "player", CACHED)


@pytest.mark.parametrize("sql", [
    # the regex analyser cut SET at the first WHERE, here the subquery's
    "UPDATE player SET player_score = (SELECT MAX(pick_value) FROM pick WHERE pick_player = player_id), "
    "player_zombie = 1",
    # ... or at a WHERE inside a string
    "UPDATE player SET player_state_text = 'where', player_is_multiactive = 1",
    "UPDATE card c JOIN player p ON p.player_id = c.card_location_arg SET p.player_zombie = 1",
])
def test_an_update_setting_a_cached_column_is_seen(sql: str) -> None:
    writes = analyse_writes(sql)
    assert writes is not None and writes.may_change("player", CACHED)


def test_a_multi_table_update_changes_the_table_it_sets() -> None:
    writes = analyse_writes("UPDATE card c JOIN player p ON p.player_id = c.card_location_arg "
                            "SET c.card_type = p.player_color")
    assert writes is not None
    assert writes.may_change("card", ["card_type"]) and not writes.may_change("player")


@pytest.mark.parametrize("sql", [
    "ALTER\nTABLE pick ADD pick_a INT, ADD pick_b INT",  # the regex wanted "ALTER " exactly
    "DROP  TABLE pick",
    "RENAME TABLE pick TO pick_old",
    "CREATE INDEX pick_value ON pick (pick_value)",
])
def test_ddl_is_recognised_whatever_the_spacing(sql: str) -> None:
    writes = analyse_writes(sql)
    assert writes is not None and writes.is_ddl and writes.may_change("pick")


@pytest.mark.parametrize("sql", ["SET @a = 1", "this is not SQL"])
def test_a_statement_not_understood_may_change_anything(sql: str) -> None:
    writes = analyse_writes(sql)
    assert writes is not None and writes.may_change("player", CACHED) and writes.may_change("global")


def test_the_analysis_is_cached_by_sql_text() -> None:
    sql = "UPDATE pick SET pick_value = 1 -- cache probe"
    analyse_writes(sql)
    hits = analyse_writes.cache_info().hits
    analyse_writes(sql)
    assert analyse_writes.cache_info().hits == hits + 1
