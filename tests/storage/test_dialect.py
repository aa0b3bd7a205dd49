"""The SQL dialect layer: splitting dbmodel.sql, schema errors, DDL shapes, and each run-time
MySQL construct executed on real databases (SQLite always; PostgreSQL and MariaDB when
ARENA_TEST_POSTGRES_URL / ARENA_TEST_MYSQL_URL are set)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from framework.storage.sql.errors import SchemaError, SQLError, UnsupportedSQLError
from framework.storage.sql.game_statement import translate_game_statement
from framework.storage.sql.names import quote_identifier
from framework.storage.sql.shapes import ColumnShape, TableShape, intern_shapes
from framework.storage.sql.split import SourceStatement, split_statements
from framework.storage.sql.translate import translate_dbmodel, translate_query, translate_statements
from framework.testing import TestTable
from tests.storage import test_dbmodel_corpus
from tests.storage.test_dbmodel_corpus import Backend

backend = test_dbmodel_corpus.backend  # the fixture: SQLite, PostgreSQL, MariaDB

TARGETS = ["sqlite", "postgresql", "mysql"]
TRANSLATED = ["sqlite", "postgresql"]

# ---------------------------------------------------------------------------------------------
# Splitting


def test_split_strips_every_comment_form() -> None:
    text = (
        "-- header\n"
        "--ALTER TABLE player ADD x INT;\n"
        "--------\n"
        "# hash comment; with a semicolon\n"
        "/* block; comment\n   over lines */\n"
        "CREATE TABLE t (  -- same-line comment; with a semicolon\n"
        "  a INT, #another\n"
        "  b INT /* inline */ NOT NULL\n"
        "); -- trailing\n"
        "DROP TABLE u;\n"
    )
    statements = split_statements(text)
    assert [s.line for s in statements] == [7, 11]
    assert [re.sub(r"\s+", " ", s.sql) for s in statements] == [
        "CREATE TABLE t ( a INT, b INT NOT NULL )",
        "DROP TABLE u",
    ]


def test_split_respects_quotes_and_backticks() -> None:
    text = (
        "INSERT INTO t VALUES ('a;b -- not a comment', \"x#y\", 'it\\'s; fine', 'o''k;');\n"
        "SELECT `weird;name` FROM t"
    )
    assert split_statements(text) == [
        SourceStatement(
            "INSERT INTO t VALUES ('a;b -- not a comment', \"x#y\", 'it\\'s; fine', 'o''k;')", 1
        ),
        SourceStatement("SELECT `weird;name` FROM t", 2),
    ]


def test_split_handles_a_byte_order_mark_and_windows_line_ends() -> None:
    text = "\ufeff-- exported on Windows\r\nCREATE TABLE t (\r\n  a INT -- the a\r\n);\r\n"
    assert split_statements(text) == [SourceStatement("CREATE TABLE t (\r\n  a INT \n)", 2)]
    assert translate_dbmodel(text, "sqlite") == ["CREATE TABLE `t` (\n  `a` INTEGER\n)"]


def test_unterminated_block_comment_is_a_schema_error() -> None:
    with pytest.raises(SchemaError) as caught:
        translate_dbmodel("CREATE TABLE t (a INT);\n/* never closed\nCREATE TABLE u (b INT);",
                          "sqlite")
    assert caught.value.line == 2


# ---------------------------------------------------------------------------------------------
# dbmodel.sql errors

BROKEN_DBMODEL = """-- my game
CREATE TABLE `card` (
  `card_id` int(10) unsigned NOT NULL AUTO_INCREMENT,
  PRIMARY KEY (`card_id`)
);

CREATE TABLE `token` (
  `token_key` varchar(32) NOT NULL
  `token_location` varchar(32) NOT NULL
);
"""


@pytest.mark.parametrize("target", TARGETS)
def test_syntax_error_names_file_line_and_statement(target: str) -> None:
    with pytest.raises(SchemaError) as caught:
        translate_dbmodel(BROKEN_DBMODEL, target, "games/demo/dbmodel.sql")  # type: ignore[arg-type]
    error = caught.value
    assert (error.filename, error.line) == ("games/demo/dbmodel.sql", 7)
    assert error.statement.startswith("CREATE TABLE `token`")
    assert "syntax error" in error.reason
    assert str(error).startswith("games/demo/dbmodel.sql line 7: syntax error")
    assert str(error).splitlines()[1] == "  CREATE TABLE `token` ( ..."


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("name", ["player", "GameLog", "global", "stats"])
def test_redefining_a_framework_table_is_refused(target: str, name: str) -> None:
    with pytest.raises(SchemaError) as caught:
        translate_dbmodel(f"\n\nCREATE TABLE IF NOT EXISTS `{name}` (x INT);", target)  # type: ignore[arg-type]
    assert caught.value.line == 3
    assert caught.value.reason == (
        f"redefines the framework table `{name}`; add columns with ALTER TABLE {name} ADD ..."
    )


@pytest.mark.parametrize("target", TARGETS)
def test_altering_framework_tables_is_allowed(target: str) -> None:
    out = translate_dbmodel(
        "ALTER TABLE player ADD player_x INT NOT NULL DEFAULT 0;\n"
        "ALTER TABLE gamelog ADD cancel TINYINT(1) NOT NULL DEFAULT 0;", target,  # type: ignore[arg-type]
    )
    assert len(out) == 2


@pytest.mark.parametrize(
    ("column", "reason"),
    [
        ("a INT DEFAULT 'abc'", "column `a`: invalid default value 'abc'"),
        ("a ENUM('x','y') DEFAULT 'z'", "column `a`: default 'z' is not one of the ENUM values"),
        ("a GEOMETRY", "unsupported column type GEOMETRY"),
        ("a VARCHAR NOT NULL", "VARCHAR needs a length, e.g. VARCHAR(32)"),
    ],
)
def test_bad_column_is_a_schema_error(column: str, reason: str) -> None:
    with pytest.raises(SchemaError) as caught:
        translate_dbmodel(f"CREATE TABLE t (id INT, {column});", "postgresql")
    assert caught.value.reason == reason


def test_session_statements_of_an_export_are_skipped() -> None:
    text = 'SET SQL_MODE = "NO_AUTO_VALUE_ON_ZERO";\nSTART TRANSACTION;\nCOMMIT;\n'
    assert translate_dbmodel(text, "sqlite") == []
    assert translate_dbmodel(text, "mysql") == []


def test_same_line_comment_keeps_the_rest_of_the_statement(backend: Backend) -> None:
    backend.create(
        "CREATE TABLE `piece` ( -- pieces on the board\n"
        "  `piece_id` INT UNSIGNED NOT NULL, -- the id\n"
        "  `piece_x` INT NOT NULL DEFAULT 0, # the column\n"
        "  `piece_y` INT NOT NULL DEFAULT 0 /* the row */,\n"
        "  PRIMARY KEY (`piece_id`) -- BGA would lose this line and everything after it\n"
        ") ENGINE=InnoDB; -- done\n"
        "ALTER TABLE `piece` ADD `piece_z` INT NOT NULL DEFAULT 5; -- depth\n"
    )
    backend.run("INSERT INTO piece (piece_id, piece_x) VALUES (1, 2)")
    assert backend.run("SELECT piece_x, piece_y, piece_z FROM piece") == [(2, 0, 5)]
    backend.assert_refused("INSERT INTO piece (piece_id) VALUES (1)")


# ---------------------------------------------------------------------------------------------
# DDL shapes

CARD = """CREATE TABLE IF NOT EXISTS `card` (
  `card_id` int(10) unsigned NOT NULL AUTO_INCREMENT,
  `card_type` varchar(16) NOT NULL COMMENT 'the type',
  `cardInPlay` TINYINT(1) UNSIGNED NOT NULL DEFAULT '0',
  `small` SMALLINT UNSIGNED DEFAULT NULL,
  `seen` TIMESTAMP NULL DEFAULT NULL,
  PRIMARY KEY (`card_id`),
  KEY `player` (`card_type`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8 AUTO_INCREMENT=1;"""


def test_sqlite_auto_increment_primary_key_moves_inline() -> None:
    create, index = translate_dbmodel(CARD, "sqlite")
    assert "`card_id` INTEGER PRIMARY KEY AUTOINCREMENT," in create
    assert "PRIMARY KEY (" not in create
    assert index == "CREATE INDEX IF NOT EXISTS `card__player` ON `card` (`card_type`)"


def test_postgresql_types_are_widened_and_names_lower_cased() -> None:
    create, index, function, trigger = translate_dbmodel(CARD, "postgresql")
    assert '"card_id" BIGINT GENERATED BY DEFAULT AS IDENTITY NOT NULL' in create
    assert '"cardinplay" SMALLINT NOT NULL DEFAULT 0' in create
    assert '"small" INTEGER DEFAULT NULL' in create
    assert '"seen" TIMESTAMP(0) DEFAULT NULL' in create
    assert 'PRIMARY KEY ("card_id")' in create
    for mysql_only in ("UNSIGNED", "ENGINE", "CHARSET", "COMMENT", "AUTO_INCREMENT", "TIMESTAMPTZ"):
        assert mysql_only not in create
    assert index == 'CREATE INDEX IF NOT EXISTS "card__player" ON "card" ("card_type")'
    assert function.startswith('CREATE OR REPLACE FUNCTION "card__card_id__auto_increment"()')
    assert trigger.startswith('CREATE OR REPLACE TRIGGER "card__card_id__auto_increment"')


def test_mariadb_runs_the_statement_as_written() -> None:
    text = "CREATE TABLE t (a INT(11) UNSIGNED NOT NULL DEFAULT '0' COMMENT 'x'); -- why\n"
    assert translate_dbmodel(text, "mysql") == [
        "CREATE TABLE t (a INT(11) UNSIGNED NOT NULL DEFAULT '0' COMMENT 'x')"
    ]


def test_alter_with_a_column_list_gives_one_alter_per_column_on_sqlite() -> None:
    text = "ALTER TABLE `player` ADD ( `player_wood` INT NOT NULL, `player_ore` INT DEFAULT 3 )"
    assert translate_dbmodel(text, "sqlite") == [
        "ALTER TABLE `player` ADD COLUMN `player_wood` INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE `player` ADD COLUMN `player_ore` INTEGER DEFAULT 3",
    ]
    assert translate_dbmodel(text.replace("ADD (", "ADD COLUMN ("), "sqlite") == (
        translate_dbmodel(text, "sqlite")
    )


def test_unnamed_keys_are_named_after_their_first_column_per_table() -> None:
    out = translate_dbmodel(
        "CREATE TABLE t (a INT, b INT, KEY (a), KEY (a, b), UNIQUE KEY (b));", "sqlite"
    )
    assert out[1:] == [
        "CREATE INDEX `t__a` ON `t` (`a`)",
        "CREATE INDEX `t__a_2` ON `t` (`a`, `b`)",
        "CREATE UNIQUE INDEX `t__b` ON `t` (`b`)",
    ]


def test_derived_names_fit_postgresql_identifiers() -> None:
    table = "a_table_with_a_really_long_name_for_the_sake_of_it"
    out = translate_dbmodel(f"CREATE TABLE {table} (x INT, KEY its_very_long_index_name (x));",
                            "postgresql")
    name = re.search(r'CREATE INDEX "([^"]+)"', out[1])
    assert name is not None and len(name.group(1)) <= 63


# ---------------------------------------------------------------------------------------------
# Run-time queries on real databases

GAME = """
CREATE TABLE `card` (
  `card_id` int(10) unsigned NOT NULL AUTO_INCREMENT,
  `card_type` varchar(16) NOT NULL,
  `card_type_arg` int(11) NOT NULL,
  `card_location` varchar(16) NOT NULL,
  `card_location_arg` int(11) NOT NULL,
  `cardInPlay` tinyint(1) NOT NULL DEFAULT 0,
  PRIMARY KEY (`card_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8 AUTO_INCREMENT=1;
CREATE TABLE `event` (
  `event_id` int(10) unsigned NOT NULL AUTO_INCREMENT,
  `event_time` DATETIME NOT NULL,
  PRIMARY KEY (`event_id`)
);
INSERT INTO card (card_type, card_type_arg, card_location, card_location_arg) VALUES
  ('heart', 1, 'deck', 0), ('heart', 2, 'deck', 1), ('spade', 3, 'deck', 2),
  ('spade', 4, 'hand', 2301), ('club', 5, 'hand', 2302), ('a_b', 6, 'discard', 0);
INSERT INTO player (player_id, player_no, player_name, player_color) VALUES
  (2301, 1, 'ann', 'ff0000'), (2302, 2, 'bob', '00ff00');
"""


@pytest.fixture
def game(backend: Backend) -> Iterator[Backend]:
    backend.create_default_tables()
    backend.create(GAME)
    yield backend


def test_backticks_case_and_reserved_words(game: Backend) -> None:
    game.run("ALTER TABLE card ADD `order` INT NOT NULL DEFAULT 0, ADD `group` VARCHAR(8)")
    game.run("UPDATE `card` SET `order` = card_id * 10, `GROUP` = 'g' WHERE CARD_TYPE = 'heart'")
    rows = game.run("SELECT `Card_Id`, `ORDER`, `group` FROM `card` WHERE `Card_Type` = 'heart' "
                    "ORDER BY `order` DESC")
    assert rows == [(2, 20, "g"), (1, 10, "g")]
    assert game.last_names == ["Card_Id", "ORDER", "group"]


def test_if_case_and_field(game: Backend) -> None:
    rows = game.run(
        "SELECT card_id, IF(card_type_arg > 2, 'high', 'low') AS level, "
        "CASE card_type WHEN 'heart' THEN 'red' ELSE 'other' END AS color FROM card "
        "WHERE card_id <= 3 ORDER BY FIELD(card_type, 'spade', 'heart'), card_id"
    )
    assert rows == [(3, "high", "other"), (1, "low", "red"), (2, "low", "red")]


def test_concat_returns_null_with_a_null_argument_as_mysql_does(game: Backend) -> None:
    rows = game.run("SELECT CONCAT(card_type, '#', card_type_arg), CONCAT('x', NULL) "
                    "FROM card WHERE card_id = 1")
    assert rows == [("heart#1", None)]


def test_group_concat_with_and_without_separator(game: Backend) -> None:
    rows = game.run("SELECT card_location, GROUP_CONCAT(card_type_arg SEPARATOR ';') AS args, "
                    "GROUP_CONCAT(card_type) AS types FROM card GROUP BY card_location "
                    "ORDER BY card_location")
    parsed = [(loc, sorted(args.split(";")), sorted(types.split(","))) for loc, args, types in rows]
    assert parsed == [
        ("deck", ["1", "2", "3"], ["heart", "heart", "spade"]),
        ("discard", ["6"], ["a_b"]),
        ("hand", ["4", "5"], ["club", "spade"]),
    ]


def test_limit_forms(game: Backend) -> None:
    assert game.run("SELECT card_id FROM card ORDER BY card_id LIMIT 2") == [(1,), (2,)]
    assert game.run("SELECT card_id FROM card ORDER BY card_id LIMIT 1, 2") == [(2,), (3,)]
    assert game.run("SELECT card_id FROM card ORDER BY card_id LIMIT 2 OFFSET 4") == [(5,), (6,)]


def test_now_gives_a_datetime(game: Backend) -> None:
    game.run("INSERT INTO event (event_time) VALUES (NOW())")
    ((stored,),) = game.run("SELECT event_time FROM event")
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", stored)
    assert game.run("SELECT COUNT(*) FROM event WHERE event_time <= NOW()") == [(1,)]


def test_update_and_delete_with_order_by_and_limit(game: Backend) -> None:
    game.run("UPDATE card SET card_location = 'hand', card_location_arg = 2301 "
             "WHERE card_location = 'deck' ORDER BY card_location_arg DESC LIMIT 2")
    assert game.run("SELECT card_id FROM card WHERE card_location = 'deck'") == [(1,)]
    game.run("DELETE FROM card WHERE card_location = 'hand' ORDER BY card_type_arg LIMIT 1")
    assert game.run("SELECT card_id FROM card WHERE card_location = 'hand' ORDER BY card_id") == [
        (3,), (4,), (5,)]
    game.run("UPDATE card c SET c.cardInPlay = 1 ORDER BY c.card_id DESC LIMIT 1")
    assert game.run("SELECT card_id FROM card WHERE cardInPlay = 1") == [(6,)]


def test_limited_update_is_rewritten_on_rowid_and_ctid() -> None:
    sql = "UPDATE card SET card_location = 'x' ORDER BY card_location_arg LIMIT 1"
    assert translate_query(sql, "sqlite") == (
        "UPDATE `card` SET `card_location` = 'x' WHERE `rowid` IN "
        "(SELECT `rowid` FROM `card` ORDER BY `card_location_arg` LIMIT 1)"
    )
    assert '"ctid" IN (SELECT "ctid" FROM "card"' in translate_query(sql, "postgresql")


def test_multi_table_update_and_delete(game: Backend) -> None:
    game.run("UPDATE player SET player_zombie = 1 WHERE player_id = 2302")
    game.run("UPDATE card JOIN player ON player.player_id = card.card_location_arg "
             "SET card.card_location = 'discard' WHERE player.player_zombie = 1")
    assert game.run("SELECT card_id FROM card WHERE card_location = 'discard' "
                    "ORDER BY card_id") == [(5,), (6,)]
    game.run("DELETE c FROM card c JOIN player p ON p.player_id = c.card_location_arg "
             "WHERE p.player_zombie = 1")
    assert game.run("SELECT COUNT(*) FROM card") == [(5,)]


@pytest.mark.parametrize("target", TRANSLATED)
def test_update_of_two_tables_is_refused(target: str) -> None:
    with pytest.raises(UnsupportedSQLError) as caught:
        translate_query("UPDATE card c JOIN player p ON p.player_id = c.card_location_arg "
                        "SET p.player_score = 1", target)  # type: ignore[arg-type]
    assert caught.value.construct == "UPDATE of several tables"


def test_replace_into(game: Backend) -> None:
    game.run("INSERT INTO `global` (global_id, global_value) VALUES (10, 1)")
    if game.target == "postgresql":
        with pytest.raises(UnsupportedSQLError) as caught:
            game.run("REPLACE INTO `global` (global_id, global_value) VALUES (10, 3)")
        assert caught.value.construct == "REPLACE INTO"
        return
    game.run("REPLACE INTO `global` (global_id, global_value) VALUES (10, 3), (11, 4)")
    assert game.run("SELECT global_id, global_value FROM `global` ORDER BY global_id") == [
        (10, 3), (11, 4)]


def test_insert_ignore_skips_duplicates(game: Backend) -> None:
    game.run("INSERT IGNORE INTO `global` (global_id, global_value) VALUES (10, 1), (10, 2)")
    assert game.run("SELECT global_value FROM `global`") == [(1,)]


def test_select_for_update(game: Backend) -> None:
    assert game.run("SELECT player_name FROM player WHERE player_id = 2301 FOR UPDATE") == [
        ("ann",)]
    assert "FOR UPDATE" not in translate_query("SELECT 1 FROM player FOR UPDATE", "sqlite")
    assert translate_query("SELECT 1 FROM player FOR UPDATE", "postgresql").endswith("FOR UPDATE")


def test_parameters_and_literal_percent(game: Backend) -> None:
    rows = game.run("SELECT card_id, card_id % 2 FROM card WHERE card_type LIKE 'he%' "
                    "AND card_type_arg > %s AND '100%s' = '100%s' ORDER BY card_id", (1,))
    assert rows == [(2, 0)]
    # no parameter, but run with an empty parameter sequence, as TableConnection does
    assert game.run("SELECT COUNT(*) FROM card WHERE card_type LIKE '%ar%'") == [(2,)]


@pytest.mark.parametrize(
    ("target", "expected"),
    [
        ("sqlite", "SELECT `a` AS `a` FROM `t` WHERE `b` = ? AND `c` LIKE '5%' LIMIT ?"),
        ("postgresql", 'SELECT "a" FROM "t" WHERE "b" = %s AND "c" ILIKE \'5%%\' LIMIT %s'),
        ("mysql", "SELECT a FROM t WHERE b = %s AND c LIKE '5%%' LIMIT %s"),
    ],
)
def test_parameter_style_per_target(target: str, expected: str) -> None:
    sql = "SELECT a FROM t WHERE b = %s AND c LIKE '5%' LIMIT %s"
    assert translate_query(sql, target) == expected  # type: ignore[arg-type]


def test_like_is_case_insensitive_and_escapes_with_backslash(game: Backend) -> None:
    assert game.run("SELECT COUNT(*) FROM card WHERE card_type LIKE 'HEA%'") == [(2,)]
    assert game.run("SELECT card_type FROM card WHERE card_type LIKE 'a\\_b'") == [("a_b",)]
    assert game.run("SELECT COUNT(*) FROM card WHERE card_type NOT LIKE '%\\_%'") == [(5,)]


def test_booleans_are_integers(game: Backend) -> None:
    rows = game.run("SELECT card_id = 1 AS is_first, card_type_arg > 4 FROM card "
                    "WHERE 1 AND card_id IN (1, 6) ORDER BY card_id")
    assert rows == [(1, 0), (0, 1)]
    assert game.run("SELECT SUM(card_location = 'deck'), SUM(cardInPlay) FROM card") == [(3, 0)]
    game.run("UPDATE card SET cardInPlay = TRUE WHERE card_location = 'hand'")
    game.run("UPDATE card SET cardInPlay = NOT cardInPlay WHERE card_id = 4")
    assert game.run("SELECT card_id FROM card WHERE cardInPlay ORDER BY card_id") == [(5,)]
    assert game.run("SELECT COUNT(*) FROM card WHERE NOT cardInPlay AND (card_id < 3 OR 0)") == [
        (2,)]


def test_aliases_in_having_and_order_by_any_case(game: Backend) -> None:
    rows = game.run("SELECT card_type, COUNT(*) AS Nb FROM card GROUP BY card_type "
                    "HAVING nb > 1 ORDER BY NB DESC, card_type")
    assert rows == [("heart", 2), ("spade", 2)]
    assert game.last_names == ["card_type", "Nb"]


def test_division_is_decimal_and_div_is_integer(game: Backend) -> None:
    assert game.run("SELECT card_type_arg / 2, card_type_arg DIV 2 FROM card "
                    "WHERE card_id = 3") == [(1.5, 1)]
    assert game.run("SELECT card_id / 0 FROM card WHERE card_id = 1") == [(None,)]


def test_union_and_subqueries(game: Backend) -> None:
    rows = game.run("SELECT card_id AS id FROM card WHERE card_id < 2 UNION "
                    "SELECT player_no FROM player WHERE player_id IN "
                    "(SELECT card_location_arg FROM card WHERE card_location = 'hand') ORDER BY id")
    assert rows == [(1,), (2,)]


def test_run_time_ddl_from_an_upgrade(game: Backend) -> None:
    for sql in ("ALTER TABLE card ADD card_owner INT UNSIGNED NOT NULL, ADD INDEX owner "
                "(card_owner)", "CREATE TABLE upgrade_log (id INT AUTO_INCREMENT PRIMARY KEY, "
                "note VARCHAR(20) NOT NULL, KEY note (note))"):
        game.run(sql)
    game.run("INSERT INTO upgrade_log (note) VALUES ('v2')")
    assert game.run("SELECT id, note FROM upgrade_log") == [(1, "v2")]
    assert game.run("SELECT card_owner FROM card WHERE card_id = 1") == [(0,)]
    game.run("DROP INDEX owner ON card")
    game.run("ALTER TABLE card DROP COLUMN card_owner")
    if game.target == "postgresql":
        game.run("ALTER TABLE card MODIFY card_type VARCHAR(40) NOT NULL DEFAULT 'none'")
        game.run("INSERT INTO card (card_type_arg, card_location, card_location_arg) "
                 "VALUES (1, 'deck', 9)")
        assert game.run("SELECT card_type FROM card WHERE card_location_arg = 9") == [("none",)]


def test_ddl_needing_several_statements_goes_through_translate_statements() -> None:
    sql = "ALTER TABLE player ADD a INT, ADD b INT"
    assert len(translate_statements(sql, "sqlite")) == 2
    with pytest.raises(SQLError, match="translate_statements"):
        translate_query(sql, "sqlite")
    assert translate_query(sql, "mysql") == sql


# ---------------------------------------------------------------------------------------------
# Refusals


@pytest.mark.parametrize("target", TARGETS)
def test_rand_is_refused_everywhere(target: str) -> None:
    with pytest.raises(UnsupportedSQLError) as caught:
        translate_query("SELECT card_id FROM card ORDER BY RAND() LIMIT 1", target)  # type: ignore[arg-type]
    assert caught.value.construct == "RAND()"
    assert "bga_rand" in str(caught.value)


@pytest.mark.parametrize(
    ("sql", "construct", "targets"),
    [
        ("INSERT INTO global (global_id, global_value) VALUES (1, 2) "
         "ON DUPLICATE KEY UPDATE global_value = VALUES(global_value)",
         "ON DUPLICATE KEY UPDATE", TRANSLATED),
        ("REPLACE INTO global (global_id, global_value) VALUES (1, 2)", "REPLACE INTO",
         ["postgresql"]),
        ("SELECT @total := 1", "MySQL variable @total", TRANSLATED),
        ("SELECT TIMESTAMPDIFF(MICROSECOND, a, b) FROM t", "TIMESTAMPDIFF with unit MICROSECOND",
         TRANSLATED),
        ("SELECT FROM_UNIXTIME(n, '%Y') FROM t", "FROM_UNIXTIME(n, format)", TRANSLATED),
        ("SELECT JSON_EXTRACT(j, '$[*]') FROM t", "JSON_EXTRACT() with a computed path or wildcards",
         TRANSLATED),
        ("SELECT a, COUNT(*) FROM t GROUP BY a WITH ROLLUP", "GROUP BY ... WITH ROLLUP",
         TRANSLATED),
        ("SELECT x FROM t WHERE x = 'a' COLLATE utf8_general_ci", "COLLATE utf8_general_ci",
         TRANSLATED),
        ("ALTER TABLE card MODIFY card_type VARCHAR(40)", "ALTER TABLE ... MODIFY/CHANGE",
         ["sqlite"]),
        ("SET @a = 1", "SET", TARGETS),
    ],
)
def test_untranslatable_constructs_are_refused_by_name(sql: str, construct: str,
                                                       targets: list[str]) -> None:
    for target in targets:
        with pytest.raises(UnsupportedSQLError) as caught:
            translate_query(sql, target)  # type: ignore[arg-type]
        assert caught.value.construct == construct
        assert "cannot be translated to" in str(caught.value)


def test_on_duplicate_key_update_runs_on_mariadb_as_written() -> None:
    sql = "INSERT INTO t (a) VALUES (1) ON DUPLICATE KEY UPDATE a = a + 1"
    assert translate_query(sql, "mysql") == sql


@pytest.mark.parametrize(
    ("sql", "message"),
    [
        ("SELECT * FROM card WHERE card_id = ?", "write query parameters as %s, not ?"),
        ("SELECT 1; SELECT 2", "one statement at a time, found 2"),
        ("SELEC card_id FROM card", "syntax error"),
        ("SELECT card_id FROM card WHERE", "syntax error"),
        ("", "empty statement"),
    ],
)
def test_bad_queries_raise_sql_errors(sql: str, message: str) -> None:
    with pytest.raises(SQLError) as caught:
        translate_query(sql, "sqlite")
    assert not isinstance(caught.value, UnsupportedSQLError)
    assert message in str(caught.value)


def test_unknown_target_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="unknown SQL target"):
        translate_query("SELECT 1", "oracle")  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------------------
# Cache and identifiers


def test_translate_query_is_cached() -> None:
    sql = "SELECT card_id FROM card WHERE card_id = %s -- cache probe"
    first = translate_query(sql, "postgresql")
    hits = translate_query.cache_info().hits
    assert translate_query(sql, "postgresql") is first
    assert translate_query.cache_info().hits == hits + 1


@pytest.mark.parametrize(
    ("name", "target", "quoted"),
    [
        ("cardInPlay", "postgresql", '"cardinplay"'),
        ('we"ird', "postgresql", '"we""ird"'),
        ("order", "sqlite", "`order`"),
        ("a`b", "mysql", "`a``b`"),
    ],
)
def test_quote_identifier(name: str, target: str, quoted: str) -> None:
    assert quote_identifier(name, target) == quoted  # type: ignore[arg-type]


def test_quote_identifier_refuses_empty_names() -> None:
    with pytest.raises(ValueError):
        quote_identifier("", "sqlite")


def test_casts_and_functions_keep_their_mysql_meaning(game: Backend) -> None:
    rows = game.run(
        "SELECT CAST('7' AS UNSIGNED), CAST(card_type_arg AS CHAR), CAST('spade' AS CHAR(3)), "
        "CAST('2.345' AS DECIMAL(5,2)), CAST('1.6' AS DECIMAL), IFNULL(NULL, 4), "
        "LEAST(card_type_arg, 2), CHAR_LENGTH(card_type), LCASE('AB') FROM card WHERE card_id = 3"
    )
    assert rows == [(7, "3", "spa", 2.35, 2, 4, 2, 5, "ab")]
    assert game.run("SELECT card_id FROM card WHERE BINARY card_type = 'spade' "
                    "ORDER BY card_id") == [(3,), (4,)]
    if game.target != "sqlite":  # CONCAT_WS arrived in SQLite 3.44
        assert game.run("SELECT CONCAT_WS('-', card_type, NULL, card_type_arg) FROM card "
                        "WHERE card_id = 1") == [("heart-1",)]


# ---------------------------------------------------------------------------------------------
# A game's statements with the table's shapes (the query corpus covers the answers)


GAME_SHAPES = intern_shapes([
    TableShape("token", (ColumnShape("token_id"), ColumnShape("token_key", True),
                         ColumnShape("token_code", True)),
               ("token_id",), (("token_id",), ("token_key",), ("token_code",)), "token_id"),
    TableShape("note", (ColumnShape("note_text", True),)),
])


def test_an_upsert_that_may_collide_on_two_keys_is_refused_by_name_on_postgresql() -> None:
    sql = ("INSERT INTO token (token_key, token_code) VALUES ('a', 'b') "
           "ON DUPLICATE KEY UPDATE token_code = VALUES(token_code)")
    with pytest.raises(UnsupportedSQLError) as caught:
        translate_game_statement(sql, "postgresql", GAME_SHAPES)
    assert caught.value.construct == "ON DUPLICATE KEY UPDATE on a table with several unique keys"
    # SQLite resolves a conflict on any key; the primary key decides when the row gives it
    assert "ON CONFLICT DO UPDATE" in translate_game_statement(sql, "sqlite", GAME_SHAPES).statements[0]
    given_id = sql.replace("(token_key,", "(token_id, token_key,").replace("('a',", "(1, 'a',")
    assert 'ON CONFLICT("token_id")' in translate_game_statement(
        given_id, "postgresql", GAME_SHAPES).statements[0]


@pytest.mark.parametrize("target", TARGETS)
def test_rand_needs_a_numeric_primary_key(target: str) -> None:
    with pytest.raises(UnsupportedSQLError) as caught:
        translate_game_statement("SELECT note_text FROM note ORDER BY RAND()", target,  # type: ignore[arg-type]
                                 GAME_SHAPES)
    assert caught.value.construct == "RAND() over a table without a primary key"


def test_game_statements_are_translated_once_per_text_and_schema() -> None:
    sql = "SELECT token_key FROM token WHERE token_code = 3"
    first = translate_game_statement(sql, "postgresql", GAME_SHAPES)
    hits = translate_game_statement.cache_info().hits
    same_schema = intern_shapes(list(GAME_SHAPES.tables))
    assert same_schema is GAME_SHAPES
    assert translate_game_statement(sql, "postgresql", same_schema) is first
    assert translate_game_statement.cache_info().hits == hits + 1
    assert "arena_number" in first.statements[0].lower()  # the loose comparison


@pytest.mark.all_backends
def test_rand_in_a_table_replays_from_the_tables_seed(lab_table: TestTable) -> None:
    sql = "SELECT pick_player FROM pick ORDER BY RAND()"
    with lab_table.with_table() as t:
        for player in range(1, 21):
            t.db_query("INSERT INTO pick (pick_player, pick_value) VALUES (%s, 1)", (player,))
    with lab_table.with_table() as t:
        first = t.get_object_list_from_db(sql, single_column=True)
        second = t.get_object_list_from_db(sql, single_column=True)
    with lab_table.with_table() as t:
        again = t.get_object_list_from_db(sql, single_column=True)
    assert sorted(first) == list(range(1, 21)) and first != sorted(first)
    assert second != first  # each statement draws its own seed
    assert again == first  # the same move of the same table draws the same seeds


@pytest.mark.all_backends
def test_mysqls_answers_in_a_table(lab_table: TestTable) -> None:
    a = lab_table.players[0]
    with lab_table.with_table() as t:
        upsert = "INSERT INTO pick (pick_player, pick_value) VALUES (%s, %s) " \
                 "ON DUPLICATE KEY UPDATE pick_value = VALUES(pick_value)"
        assert t.db_affected_row(t.db_query(upsert, (a, 2))) == 1
        assert t.db_affected_row(t.db_query(upsert, (a, 3))) == 2
        assert t.db_affected_row(t.db_query(upsert, (a, 3))) == 0
        unchanged = t.db_query("UPDATE pick SET pick_value = 3 WHERE pick_player = %s", (a,))
        assert (t.db_affected_row(unchanged), unchanged.rowcount) == (0, 1)
        ignored = t.db_query("INSERT IGNORE INTO pick (pick_player, pick_value) VALUES (%s, 1)", (a,))
        assert (t.db_affected_row(ignored), t.db_get_last_id(ignored)) == (0, 0)
        assert t.get_unique_value_from_db("SELECT pick_value FROM pick WHERE pick_player = %s",
                                          (a,)) == 3
