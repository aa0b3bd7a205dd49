"""``translate_schema``: a dbmodel.sql translated knowing the tables that exist at each
statement (no database needed; the corpus runs the results on real ones)."""

from __future__ import annotations

import pytest

from framework.engine.creation import default_tables_sql
from framework.storage.sql.dbmodel import framework_tables, translate_schema
from framework.storage.sql.errors import SchemaError, Target

TARGETS: tuple[Target, ...] = ("sqlite", "postgresql", "mysql")


def translated(text: str, target: Target) -> list[tuple[int, str]]:
    known = framework_tables(default_tables_sql())
    return [(s.line, s.sql) for s in translate_schema(text, target, "games/demo/dbmodel.sql", known=known)]


@pytest.mark.parametrize("target", TARGETS)
def test_if_not_exists_of_an_existing_table_gives_nothing(target: Target) -> None:
    text = ("CREATE TABLE `a` (`x` INT);\n"
            "CREATE TABLE IF NOT EXISTS `a` (`id` INT NOT NULL AUTO_INCREMENT, PRIMARY KEY (`id`), KEY (`id`));\n"
            "CREATE TABLE IF NOT EXISTS `zz_replay1_player` (`x` INT);\n"
            "DROP TABLE `a`;\n"
            "CREATE TABLE IF NOT EXISTS `a` (`y` INT);\n")
    lines = [line for line, _ in translated(text, target)]
    assert 2 not in lines and 3 not in lines
    assert 5 in lines  # dropped meanwhile: made again


def test_each_statement_comes_with_its_line_and_source() -> None:
    text = "-- cards\n\nCREATE TABLE `card` (\n  `card_id` INT NOT NULL,\n  KEY (`card_id`)\n);\n"
    statements = translate_schema(text, "sqlite", known=framework_tables(default_tables_sql()))
    assert [(s.line, s.sql.split(" (")[0]) for s in statements] == [
        (3, "CREATE TABLE `card`"), (3, "CREATE INDEX `card__card_id` ON `card`")]
    assert statements[0].source == "CREATE TABLE `card` (\n  `card_id` INT NOT NULL,\n  KEY (`card_id`)\n)"


def test_like_on_sqlite_needs_a_declaration_arena_knows() -> None:
    text = ("CREATE TABLE `a` (`x` INT NOT NULL);\n"
            "ALTER TABLE `a` DROP COLUMN `x`, ADD `y` INT;\n"
            "CREATE TABLE `b` LIKE `a`;\n")
    with pytest.raises(SchemaError, match="write the full CREATE TABLE") as caught:
        translated(text, "sqlite")
    assert caught.value.line == 3
    assert translated(text, "postgresql")[-1] == (3, 'CREATE TABLE "b" (LIKE "a" INCLUDING ALL)')


@pytest.mark.parametrize("target", TARGETS)
def test_like_or_as_select_of_a_missing_table_is_refused(target: Target) -> None:
    for statement in ("CREATE TABLE `b` LIKE `nowhere`", "CREATE TABLE `b` AS SELECT * FROM `nowhere`"):
        with pytest.raises(SchemaError, match="there is no table `nowhere`"):
            translated(statement + ";", target)


def test_as_select_of_expressions_is_the_backends_own() -> None:
    text = "CREATE TABLE `a` (`x` INT NOT NULL DEFAULT 4);\nCREATE TABLE `b` AS SELECT COUNT(*) AS n FROM `a`;\n"
    assert translated(text, "sqlite")[-1] == (2, "CREATE TABLE `b` AS SELECT COUNT(*) AS `n` FROM `a`")
    columns = "CREATE TABLE `c` AS SELECT `x`, `x` AS `y` FROM `a` WHERE FALSE IS TRUE;\n"
    assert translated(text + columns, "sqlite")[-1] == (
        3, "CREATE TABLE `c` (\n  `x` INTEGER NOT NULL DEFAULT 4,\n  `y` INTEGER NOT NULL DEFAULT 4\n)")


def test_an_unquoted_reserved_word_may_be_quoted() -> None:
    text = "CREATE TABLE `move` (`order` INT(3), `key` INT, `desc` VARCHAR(8));\n"
    assert translated(text, "sqlite") == [
        (1, "CREATE TABLE `move` (\n  `order` INTEGER,\n  `key` INTEGER,\n  `desc` VARCHAR(8)\n)")]
