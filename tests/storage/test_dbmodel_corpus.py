"""BGA-style dbmodel.sql files, created after the framework's tables on real databases and
exercised with run-time queries: SQLite always, PostgreSQL and MariaDB when
ARENA_TEST_POSTGRES_URL / ARENA_TEST_MYSQL_URL are set.

The ``backend`` fixture and the ``Backend`` class are shared with ``test_dialect.py``.
"""

from __future__ import annotations

import datetime
import os
import sqlite3
import uuid
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from decimal import Decimal
from importlib.resources import files
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

import pytest

from framework.storage.base import COPY_PREFIXES
from framework.storage.sql.dbmodel import KnownTables, framework_tables, translate_schema
from framework.storage.sql.ddl import copy_table_sql
from framework.storage.sql.errors import SchemaError, Target
from framework.storage.sql.translate import translate_statements

DBMODELS = Path(__file__).resolve().parent / "dbmodels"
CORPUS = sorted(p.name for p in DBMODELS.glob("*.sql"))

SKIP_POSTGRES = (
    "set ARENA_TEST_POSTGRES_URL=postgresql://postgres@127.0.0.1:5432/postgres "
    "to run against PostgreSQL"
)
SKIP_MYSQL = "set ARENA_TEST_MYSQL_URL=mysql://root@127.0.0.1:3306/ to run against MariaDB"


def default_tables_sql() -> str:
    return files("framework.storage").joinpath("default_tables.sql").read_text(encoding="utf-8")


def normalize(value: Any) -> Any:
    """Driver values as plain Python: NUMERIC/DECIMAL as int or float, dates as ISO text."""
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    if isinstance(value, datetime.datetime):
        return value.strftime("%Y-%m-%d %H:%M:%S")
    if isinstance(value, datetime.date):
        return value.isoformat()
    if isinstance(value, memoryview):
        return bytes(value)
    return value


class Backend:
    """One fresh game-table database on a real server (or SQLite file)."""

    def __init__(self, target: Target, connection: Any, integrity_errors: tuple[type, ...],
                 errors: tuple[type, ...]) -> None:
        self.target = target
        self.connection = connection
        self.integrity_errors = integrity_errors
        self.errors = errors
        self.last_names: list[str] = []
        self.known: KnownTables | None = None  # the tables there are before a dbmodel.sql

    def execute(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """Run one statement already in the backend's dialect."""
        cur = self.connection.cursor()
        try:
            cur.execute(sql, tuple(params))
            if cur.description is None:
                self.last_names = []
                return []
            self.last_names = [d[0] for d in cur.description]
            return [tuple(normalize(v) for v in row) for row in cur.fetchall()]
        finally:
            cur.close()

    def run(self, mysql_sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """Translate one MySQL statement (run-time style) and run it."""
        rows: list[tuple[Any, ...]] = []
        for sql in translate_statements(mysql_sql, self.target):
            rows = self.execute(sql, params)
        return rows

    def assert_refused(self, mysql_sql: str) -> None:
        """The statement fails because the database refuses the data, not for another reason."""
        with pytest.raises(self.errors) as caught:
            self.run(mysql_sql)
        error = caught.value
        # MariaDB reports a failed CHECK constraint (ENUM, JSON) as error 4025.
        is_check = self.target == "mysql" and getattr(error, "args", (None,))[0] == 4025
        assert isinstance(error, self.integrity_errors) or is_check, repr(error)

    def create(self, dbmodel: str, filename: str = "dbmodel.sql",
               reserved: frozenset[str] | None = None) -> None:
        """Translate ``dbmodel`` as table creation does (after the framework's tables when
        they are there) and run it."""
        kwargs: dict[str, Any] = {} if reserved is None else {"reserved": reserved}
        for statement in translate_schema(dbmodel, self.target, filename, known=self.known, **kwargs):
            self.execute(statement.sql)

    def create_default_tables(self) -> None:
        """The framework's tables and their ``zz_`` copies, as table creation makes them
        before the game's dbmodel.sql."""
        self.create(default_tables_sql(), "default_tables.sql", reserved=frozenset())
        self.known = framework_tables(default_tables_sql())
        for table in ("global", "stats", "gamelog", "player", "arena_meta"):
            for prefix in COPY_PREFIXES:
                self.execute(copy_table_sql(table, prefix + table, self.target))


def _sqlite_backend(tmp_path: Path) -> Iterator[Backend]:
    connection = sqlite3.connect(tmp_path / "table.db", isolation_level=None)
    connection.execute("PRAGMA foreign_keys=ON")
    yield Backend("sqlite", connection, (sqlite3.IntegrityError,), (sqlite3.Error,))
    connection.close()


def _postgres_backend() -> Iterator[Backend]:
    url = os.environ.get("ARENA_TEST_POSTGRES_URL")
    if not url:
        pytest.skip(SKIP_POSTGRES)
    import psycopg

    schema = f"arena_test_{uuid.uuid4().hex[:12]}"
    connection = psycopg.connect(url, autocommit=True)
    connection.execute(f'CREATE SCHEMA "{schema}"')
    connection.execute(f'SET search_path TO "{schema}"')
    connection.execute("SET TIME ZONE 'UTC'")
    try:
        yield Backend("postgresql", connection, (psycopg.IntegrityError, psycopg.DataError),
                      (psycopg.Error,))
    finally:
        connection.execute(f'DROP SCHEMA "{schema}" CASCADE')
        connection.close()


def _mysql_backend() -> Iterator[Backend]:
    url = os.environ.get("ARENA_TEST_MYSQL_URL")
    if not url:
        pytest.skip(SKIP_MYSQL)
    import pymysql

    parts = urlparse(url)
    database = f"arena_test_{uuid.uuid4().hex[:12]}"
    connection = pymysql.connect(
        host=parts.hostname or "127.0.0.1", port=parts.port or 3306,
        user=unquote(parts.username or "root"), password=unquote(parts.password or ""),
        autocommit=True, charset="utf8mb4",
    )
    with connection.cursor() as cur:
        cur.execute(f"CREATE DATABASE `{database}`")
        cur.execute(f"USE `{database}`")
        cur.execute("SET time_zone = '+00:00'")
    try:
        yield Backend("mysql", connection, (pymysql.IntegrityError, pymysql.DataError),
                      (pymysql.Error,))
    finally:
        with connection.cursor() as cur:
            cur.execute(f"DROP DATABASE `{database}`")
        connection.close()


@pytest.fixture(params=["sqlite", "postgresql", "mysql"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Backend]:
    if request.param == "sqlite":
        yield from _sqlite_backend(tmp_path)
    elif request.param == "postgresql":
        yield from _postgres_backend()
    else:
        yield from _mysql_backend()


# ---------------------------------------------------------------------------------------------
# What each corpus file is exercised with (MySQL, as a game would write it).


@dataclass(frozen=True)
class Run:
    sql: str

    def check(self, db: Backend) -> None:
        db.run(self.sql)


@dataclass(frozen=True)
class Rows:
    sql: str
    expected: list[tuple[Any, ...]]

    def check(self, db: Backend) -> None:
        assert db.run(self.sql) == self.expected, self.sql


@dataclass(frozen=True)
class Names:
    """The result keys, as MySQL names them."""

    sql: str
    expected: list[str]

    def check(self, db: Backend) -> None:
        db.run(self.sql)
        assert db.last_names == self.expected, self.sql


@dataclass(frozen=True)
class Refused:
    """The database refuses the data (constraint, enum, JSON, foreign key)."""

    sql: str

    def check(self, db: Backend) -> None:
        db.assert_refused(self.sql)


@dataclass(frozen=True)
class Fails:
    """Any database error (e.g. a column that must not exist)."""

    sql: str

    def check(self, db: Backend) -> None:
        with pytest.raises(db.errors):
            db.run(self.sql)


Step = Run | Rows | Names | Refused | Fails

CARD = "INSERT INTO card (card_type, card_type_arg, card_location, card_location_arg) VALUES "

SCENARIOS: dict[str, list[Step]] = {
    "01_deck_classic.sql": [
        Run(CARD + "('heart', 7, 'deck', 0), ('spade', 10, 'deck', 1)"),
        Run("INSERT INTO card (card_id, card_type, card_type_arg, card_location, "
            "card_location_arg) VALUES (10, 'club', 1, 'deck', 2)"),
        Run(CARD + "('diamond', 3, 'hand', 2301)"),
        Run("INSERT INTO card VALUES (NULL, 'joker', 0, 'deck', 3)"),
        Rows("SELECT card_id, card_type FROM card ORDER BY card_id",
             [(1, "heart"), (2, "spade"), (10, "club"), (11, "diamond"), (12, "joker")]),
        Run("UPDATE player SET player_tricks = player_tricks + 1 WHERE player_id = 2301"),
        Rows("SELECT player_tricks FROM player", [(1,)]),
        Run("UPDATE card SET card_location = 'hand', card_location_arg = 2301 "
            "WHERE card_location = 'deck' ORDER BY card_location_arg DESC LIMIT 1"),
        Rows("SELECT card_type FROM card WHERE card_location = 'hand' ORDER BY card_id",
             [("diamond",), ("joker",)]),
        Run("DELETE FROM card WHERE card_location = 'deck' ORDER BY card_location_arg LIMIT 1"),
        Rows("SELECT card_type FROM card WHERE card_location = 'deck' ORDER BY card_id",
             [("spade",), ("club",)]),
    ],
    "02_tokens_board.sql": [
        Run("INSERT INTO token (token_key, token_location, token_state) "
            "VALUES ('worker_1', 'supply', 0), ('worker_2', 'board_3', NULL)"),
        Refused("INSERT INTO token (token_key, token_location) VALUES ('worker_1', 'x')"),
        Run("INSERT INTO board (board_x, board_y) VALUES (0, 0), (0, 1), (1, 0)"),
        Refused("INSERT INTO board (board_x, board_y) VALUES (0, 1)"),
        Rows("SELECT board_terrain, board_visible, board_player FROM board "
             "WHERE board_x = 0 AND board_y = 1", [("plain", 0, None)]),
        Run("UPDATE board SET board_visible = 1 WHERE board_x = 0"),
        Rows("SELECT COUNT(*) FROM board WHERE board_visible", [(2,)]),
        Run("INSERT INTO move (move_player, `from`, `to`, `order`) VALUES (2301, 'a1', 'b2', 1)"),
        Rows("SELECT move_id, `from`, `to`, `order` FROM move", [(1, "a1", "b2", 1)]),
    ],
    "03_undo_boilerplate.sql": [
        Run("INSERT INTO gamelog (gamelog_move_id, gamelog_time, gamelog_type, gamelog_log, "
            "gamelog_args) VALUES (1, '2024-01-01 10:00:00', 'move', '', '{}')"),
        Rows("SELECT gamelog_packet_id, gamelog_private, cancel FROM gamelog", [(1, 0, 0)]),
        Run("UPDATE gamelog SET cancel = 1 WHERE gamelog_move_id >= 1"),
        Rows("SELECT cancel FROM gamelog", [(1,)]),
        Rows("SELECT player_undo_move FROM player", [(0,)]),
        Run("INSERT INTO user_preferences (player_id, pref_id, pref_value) VALUES (2301, 100, 2)"),
        Rows("SELECT id, pref_value FROM user_preferences", [(1, 2)]),
        Fails("SELECT player_old_column FROM player"),
        Fails("SELECT gamelog_extra FROM gamelog"),
    ],
    "04_player_columns.sql": [
        Rows("SELECT player_money, player_vp, player_passed, player_first, player_wood, "
             "player_stone, player_faction, player_order, player_note FROM player",
             [(10, 0, 0, 0, 0, 0, "", 0, None)]),
        Run("UPDATE player SET player_faction = 'elves', player_first = TRUE"),
        Rows("SELECT player_faction FROM player WHERE player_first", [("elves",)]),
    ],
    "05_enum_json.sql": [
        Run("INSERT INTO building (building_state, building_owner, building_data) "
            "VALUES ('hidden', 2301, '{\"level\": 2}')"),
        Rows("SELECT building_id, building_kind, building_data FROM building",
             [(1, "farm", '{"level": 2}')]),
        Refused("INSERT INTO building (building_kind, building_state) VALUES ('castle', 'hidden')"),
        Refused("UPDATE building SET building_state = 'gone'"),
        Refused("INSERT INTO building (building_state, building_data) VALUES ('visible', '{no')"),
        Run("INSERT INTO building (building_owner) VALUES (2302)"),
        Rows("SELECT building_state FROM building WHERE building_owner = 2302", [("hidden",)]),
        Run("INSERT INTO undo_state (undo_player, undo_payload) VALUES (2301, '[1, 2, 3]')"),
        Rows("SELECT undo_payload FROM undo_state", [("[1, 2, 3]",)]),
        Run("UPDATE player SET player_private_state = '{\"hand\": [1, 2]}'"),
        Rows("SELECT player_private_state FROM player", [('{"hand": [1, 2]}',)]),
    ],
    "06_mixed_case.sql": [
        Run("INSERT INTO INFLUENCE (Region, playerId, cubeCount) VALUES ('north', 2301, 2)"),
        Run("INSERT INTO INFLUENCE (region, PLAYERID, cubecount) VALUES ('south', 2301, 1)"),
        Rows("SELECT REGION, CUBECOUNT FROM INFLUENCE ORDER BY cubeCount",
             [("south", 1), ("north", 2)]),
        Run("INSERT INTO cardsInPlay (cardId, cardInPlay) VALUES (5, 1), (6, 0)"),
        Rows("SELECT CARDID FROM cardsInPlay WHERE CardInPlay = 1", [(5,)]),
        Names("SELECT cardInPlay, cardid, cardId AS Id FROM cardsInPlay",
              ["cardInPlay", "cardid", "Id"]),
        Rows("SELECT Region, COUNT(*) AS n FROM INFLUENCE GROUP BY Region ORDER BY Region",
             [("north", 1), ("south", 1)]),
        Names("SELECT Region, playerID FROM INFLUENCE ORDER BY Region LIMIT 1",
              ["Region", "playerID"]),
        Rows("SELECT playercolorname FROM player", [("none",)]),
    ],
    "07_reserved_words.sql": [
        Run("INSERT INTO tile (`column`, `group`, `from`, `to`, `key`, `user`) "
            "VALUES (3, 'g1', 1, 2, 'k', 'u')"),
        Rows("SELECT `table`, `primary`, `order`, `column`, `group`, `from`, `to`, `key`, `user` "
             "FROM tile", [("main", 0, 0, 3, "g1", 1, 2, "k", "u")]),
        Run("UPDATE tile SET `order` = `order` + 1, `group` = 'g2' WHERE `from` = 1"),
        Rows("SELECT t.`order`, t.`group` FROM tile t ORDER BY t.`order`", [(1, "g2")]),
        Names("SELECT `order`, `key` AS k FROM tile", ["order", "k"]),
    ],
    "08_reused_keys.sql": [
        Run("INSERT INTO resource (player_id, resource_type, resource_count) "
            "VALUES (2301, 'wood', 2)"),
        Refused("INSERT INTO resource (player_id, resource_type) VALUES (2301, 'wood')"),
        Run("INSERT IGNORE INTO resource (player_id, resource_type, resource_count) "
            "VALUES (2301, 'wood', 9)"),
        Rows("SELECT resource_count FROM resource", [(2,)]),
        Run("INSERT INTO bonus (bonus_id, bonus_code) VALUES (1, 'X1')"),
        Refused("INSERT INTO bonus (bonus_id, bonus_code) VALUES (2, 'X1')"),
        Run("INSERT INTO score_log (player_id, points) VALUES (2301, 5), (2301, 7)"),
        Rows("SELECT log_id, points FROM score_log ORDER BY log_id", [(1, 5), (2, 7)]),
        Run("INSERT INTO worker (player_id, worker_location) VALUES (2301, 'mine')"),
        Run("INSERT INTO objective (objective_id, player_id) VALUES (1, 2301)"),
    ],
    "09_small_autoinc.sql": [
        Run("INSERT INTO round (round_name) VALUES ('first'), ('second')"),
        Run("INSERT INTO round (round_id, round_name) VALUES (7, 'seventh')"),
        Run("INSERT INTO round (round_name) VALUES ('eighth')"),
        Rows("SELECT round_id, round_name FROM round ORDER BY round_id",
             [(1, "first"), (2, "second"), (7, "seventh"), (8, "eighth")]),
        Run("INSERT INTO phase (phase_round) VALUES (1)"),
        Rows("SELECT phase_id, phase_label FROM phase", [(100, "")]),
        Run("INSERT INTO turn (turn_player) VALUES (2301)"),
        Rows("SELECT turn_id FROM turn", [(1,)]),
    ],
    "10_booleans.sql": [
        Run("INSERT INTO card_flags (card_id) VALUES (1), (2)"),
        Rows("SELECT revealed, tapped, discarded, visible FROM card_flags WHERE card_id = 1",
             [(0, 1, 0, 1)]),
        Run("UPDATE card_flags SET revealed = TRUE, discarded = NOT discarded WHERE card_id = 1"),
        Rows("SELECT revealed, discarded FROM card_flags WHERE card_id = 1", [(1, 1)]),
        Rows("SELECT COUNT(*) FROM card_flags WHERE revealed AND visible = 1", [(1,)]),
        Rows("SELECT SUM(revealed = 1) AS n, SUM(tapped) AS t FROM card_flags", [(1, 2)]),
        Rows("SELECT player_has_passed FROM player", [(0,)]),
    ],
    "11_foreign_keys.sql": [
        Run("INSERT INTO deck (deck_name) VALUES ('main')"),
        Run("INSERT INTO deck_card (deck_id, card_value) VALUES (1, 5), (1, 6)"),
        Refused("INSERT INTO deck_card (deck_id, card_value) VALUES (99, 1)"),
        Run("DELETE FROM deck WHERE deck_id = 1"),
        Rows("SELECT COUNT(*) FROM deck_card", [(0,)]),
    ],
    "12_timestamps.sql": [
        Run("INSERT INTO action_log (action_player, action_name, played_on, day) "
            "VALUES (2301, 'build', '2024-03-01 12:30:00', '2024-03-01')"),
        Rows("SELECT action_name, played_on, day, created_at IS NOT NULL FROM action_log",
             [("build", "2024-03-01 12:30:00", "2024-03-01", 1)]),
        Run("UPDATE action_log SET updated_at = '2000-01-01 00:00:00'"),
        Run("UPDATE action_log SET action_name = 'rebuild'"),
        Rows("SELECT updated_at > '2020-01-01' FROM action_log", [(1,)]),
        Run("UPDATE action_log SET action_name = 'x', updated_at = '2001-01-01 00:00:00'"),
        Rows("SELECT updated_at FROM action_log", [("2001-01-01 00:00:00",)]),
    ],
    "13_fixed_data.sql": [
        Rows("SELECT region_id, region_name, region_value FROM region ORDER BY region_id",
             [(1, "North", 3), (2, "South", 2), (3, "East", 1), (4, "West's end", 4),
              (5, "Center", 5)]),
        Rows("SELECT region_id, region_name FROM region_copy ORDER BY region_id",
             [(1, "North"), (4, "West's end"), (5, "Center")]),
    ],
    "14_word_no_pk.sql": [
        Run("INSERT INTO word (word, word_player) VALUES ('arena', 2301), ('arena', 2302)"),
        Rows("SELECT word.word, COUNT(*) AS n FROM word GROUP BY word.word", [("arena", 2)]),
        Run("INSERT INTO letter_bag (letter) VALUES ('A'), ('B')"),
        Rows("SELECT letter, letter_count FROM letter_bag ORDER BY letter", [("A", 0), ("B", 0)]),
    ],
    "15_types.sql": [
        Run("INSERT INTO stock (price, ratio, weight, notes, history, archive, blob_data, "
            "seen_at) VALUES (12.5, 0.25, 1.5, 'n', 'h', 'a', 'bin', '2024-01-02 03:04:05')"),
        Rows("SELECT stock_id, price, ratio, weight, label, code, small, medium, big, notes, "
             "history, archive, LENGTH(blob_data), seen_at FROM stock",
             [(1, 12.5, 0.25, 1.5, "0", "AAA", -1, 0, 0, "n", "h", "a", 3,
               "2024-01-02 03:04:05")]),
    ],
    "16_drop_recreate.sql": [
        Run("INSERT INTO market (market_slot, market_card) VALUES (1, 10)"),
        Run("INSERT INTO auction (auction_round, auction_bid) VALUES (1, 5), (1, 6)"),
        Run("INSERT INTO auction (auction_round, auction_id, auction_bid) VALUES (2, 10, 1)"),
        Run("INSERT INTO auction (auction_round, auction_bid) VALUES (2, 2)"),
        Rows("SELECT auction_round, auction_id, auction_bid FROM auction ORDER BY auction_id",
             [(1, 1, 5), (1, 2, 6), (2, 10, 1), (2, 11, 2)]),
    ],
    "17_phpmyadmin_export.sql": [
        Run("INSERT INTO meeple (meeple_color) VALUES ('ff0000')"),
        Rows("SELECT meeple_id, meeple_location, meeple_location_arg FROM meeple",
             [(1, "supply", 0)]),
    ],
    "18_savepoint_alter.sql": [
        # a copy is storage, without its live table's AUTO_INCREMENT: ids are given
        Run("INSERT INTO zz_savepoint_gamelog (gamelog_packet_id, gamelog_move_id, gamelog_time, "
            "gamelog_type, gamelog_log, gamelog_args, cancel) "
            "VALUES (5, 1, '2024-01-01 10:00:00', 'move', '', '{}', 1)"),
        Rows("SELECT gamelog_packet_id, cancel FROM zz_savepoint_gamelog", [(5, 1)]),
        Run("INSERT INTO gamelog (gamelog_move_id, gamelog_time, gamelog_type, gamelog_log, "
            "gamelog_args) VALUES (2, '2024-01-01 10:00:00', 'move', '', '{}')"),
        Rows("SELECT gamelog_move_id, cancel FROM gamelog", [(2, 0)]),
        Run("INSERT INTO zz_savepoint_player (player_id, player_no, player_name, player_color, "
            "player_undo_points) SELECT player_id, player_no, player_name, player_color, "
            "player_undo_points + 3 FROM player"),
        Rows("SELECT player_name, player_undo_points FROM zz_savepoint_player", [("ann", 3)]),
        Names("SELECT * FROM zz_savepoint_stats",
              ["stats_id", "stats_type", "stats_player_id", "stats_value"]),
    ],
    "19_create_as_select.sql": [
        Rows("SELECT card_id, card_type FROM card_undo", []),
        # no key came along: the same values twice; the AUTO_INCREMENT column defaults to 0
        Run("INSERT INTO card_undo (card_type, card_location_arg) VALUES ('heart', 1), ('heart', 1)"),
        Rows("SELECT card_id, card_kind, card_location, card_note, card_seen IS NOT NULL, COUNT(*) "
             "FROM card_undo GROUP BY card_id, card_kind, card_location, card_note, card_seen",
             [(0, "plain", "deck", None, 1, 2)]),
        Refused("INSERT INTO card_undo (card_type, card_location_arg, card_location) "
                "VALUES ('x', 1, NULL)"),
        Refused("INSERT INTO card_undo (card_type, card_location_arg, card_kind) "
                "VALUES ('x', 1, 'silver')"),
        Rows("SELECT id, card_kind FROM card_short", []),
        Run("INSERT INTO card_short (card_kind) VALUES ('gold')"),
        Rows("SELECT id, card_kind FROM card_short", [(0, "gold")]),
        Refused("INSERT INTO card_short (id) VALUES (NULL)"),
        Rows("SELECT card_id, card_type FROM card_snapshot ORDER BY card_id",
             [(1, "heart"), (2, "spade")]),
        Names("SELECT * FROM card_snapshot", ["card_id", "card_type"]),
        Run("INSERT INTO player_undo SELECT * FROM player"),
        Rows("SELECT player_id, player_name, player_score FROM player_undo", [(2301, "ann", 0)]),
    ],
    "20_create_like.sql": [
        Run("INSERT INTO token_undo (token_key) VALUES ('a'), ('b')"),
        Rows("SELECT token_id, token_key, token_state, token_owner FROM token_undo ORDER BY token_id",
             [(1, "a", 0, 7), (2, "b", 0, 7)]),
        Run("INSERT INTO token_undo (token_id, token_key) VALUES (NULL, 'c')"),
        Rows("SELECT MAX(token_id) FROM token_undo", [(3,)]),
        Refused("INSERT INTO token_undo (token_key) VALUES ('a')"),
        Run("INSERT INTO token (token_key) VALUES ('a')"),
        Rows("SELECT token_id FROM token", [(100,)]),
        Fails("SELECT player_id FROM token_undo"),
        Run("INSERT INTO player_copy (player_id, player_no, player_name, player_color) "
            "VALUES (1, 1, 'bob', 'ffffff')"),
        Refused("INSERT INTO player_copy (player_id, player_no, player_name, player_color) "
                "VALUES (1, 2, 'eve', '000000')"),
        Rows("SELECT player_score, player_next_notif FROM player_copy", [(0, 1)]),
    ],
    "21_if_not_exists_existing.sql": [
        Run("INSERT INTO piece (piece_key) VALUES ('a'), ('b')"),
        Rows("SELECT piece_key, piece_location FROM piece ORDER BY piece_key",
             [("a", "box"), ("b", "box")]),
        Refused("INSERT INTO piece (piece_key) VALUES ('a')"),
        Fails("SELECT piece_id FROM piece"),
    ],
}


def test_every_corpus_file_has_a_scenario() -> None:
    assert len(CORPUS) >= 15
    assert sorted(SCENARIOS) == CORPUS


def test_default_tables_create_and_take_the_frameworks_rows(backend: Backend) -> None:
    backend.create_default_tables()
    backend.run("INSERT INTO `global` (global_id, global_value) VALUES (1, 2), (10, 0)")
    backend.run("INSERT INTO stats (stats_type, stats_player_id, stats_value) "
                "VALUES (10, NULL, 1.5), (11, 2301, 3)")
    backend.run("INSERT INTO gamelog (gamelog_move_id, gamelog_private, gamelog_player, "
                "gamelog_time, gamelog_type, gamelog_log, gamelog_args) "
                "VALUES (1, 1, 2301, '2024-01-01 10:00:00', 'hand', 'You draw', '{}')")
    backend.run("INSERT INTO arena_meta (meta_key, meta_value) VALUES ('seed', '42')")
    assert backend.run("SELECT global_value FROM `global` WHERE global_id = 1") == [(2,)]
    assert backend.run("SELECT stats_id, stats_value FROM stats ORDER BY stats_id") == [
        (1, 1.5), (2, 3)]
    assert backend.run("SELECT gamelog_packet_id, gamelog_player FROM gamelog") == [(1, 2301)]
    # INT UNSIGNED holds ids above 2^31 (widened to BIGINT on PostgreSQL).
    backend.run("INSERT INTO player (player_id, player_no, player_name, player_color) "
                "VALUES (4000000000, 2, 'big', '00ff00')")
    assert backend.run("SELECT player_id, player_next_notif, player_score FROM player") == [
        (4000000000, 1, 0)]
    backend.assert_refused("INSERT INTO stats (stats_type, stats_player_id, stats_value) "
                           "VALUES (11, 2301, 4)")


@pytest.mark.parametrize("name", CORPUS)
def test_corpus_file_creates_and_works(name: str, backend: Backend) -> None:
    backend.create_default_tables()
    backend.create((DBMODELS / name).read_text(encoding="utf-8"), name)
    # The framework's own insert must work whatever NOT NULL columns the game added.
    backend.run("INSERT INTO player (player_id, player_no, player_name, player_color) "
                "VALUES (2301, 1, 'ann', 'ff0000')")
    assert backend.run("SELECT player_id, player_score, player_zombie FROM player") == [
        (2301, 0, 0)]
    for step in SCENARIOS[name]:
        step.check(backend)


# ---------------------------------------------------------------------------------------------
# What MariaDB refuses in a dbmodel.sql, Arena refuses on every backend: before any statement
# runs, naming the file, the line and the statement.

REFUSED = [
    ("CREATE TABLE `move` (\n  `move_id` INT(10) NOT NULL,\n  order INT(3) NOT NULL\n)",
     "`order` is a reserved word"),
    ("ALTER TABLE `player` ADD desc INT NOT NULL DEFAULT 0", "`desc` is a reserved word"),
    ("CREATE TABLE `clock` (`clock_id` INT, current_time INT)", "`current_time` is a reserved word"),
    ("CREATE TABLE group (`a` INT)", "`group` is a reserved word"),
    ("CREATE TABLE `word` (`word_id` INT NOT NULL, `word_text` VARCHAR NOT NULL)",
     "VARCHAR needs a length"),
    ("ALTER TABLE `player` ADD `player_motto` VARCHAR NULL", "VARCHAR needs a length"),
]


@pytest.mark.parametrize(("statement", "reason"), REFUSED, ids=[r for _, r in REFUSED])
def test_what_mariadb_refuses_is_refused_with_file_line_and_statement(
        backend: Backend, statement: str, reason: str) -> None:
    backend.create_default_tables()
    text = "-- a game's tables\nCREATE TABLE `ok` (`a` INT);\n\n" + statement + ";\n"
    with pytest.raises(SchemaError) as caught:
        backend.create(text, "games/demo/dbmodel.sql")
    error = caught.value
    assert reason in error.reason
    assert (error.filename, error.line, error.statement) == ("games/demo/dbmodel.sql", 4, statement)
    assert str(error).startswith("games/demo/dbmodel.sql line 4: ")
    assert backend.run("SELECT COUNT(*) FROM player") == [(0,)]
    with pytest.raises(backend.errors):  # nothing of the file ran, not even its first table
        backend.run("SELECT a FROM ok")
    if backend.target == "mysql":  # MariaDB itself refuses the statement as written
        with pytest.raises(backend.errors):
            backend.execute(statement)
