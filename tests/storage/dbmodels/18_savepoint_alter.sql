-- ------
-- Arena test corpus: undo support that changes the framework's own copies, as a real game
-- does: on BGA the zz_ copies of the framework's tables exist before dbmodel.sql runs.
-- ------

ALTER TABLE `gamelog` ADD `cancel` TINYINT(1) NOT NULL DEFAULT 0;
ALTER TABLE `zz_savepoint_gamelog` ADD `cancel` TINYINT(1) NOT NULL DEFAULT 0;

ALTER TABLE `player` ADD `player_undo_points` INT(10) UNSIGNED NOT NULL DEFAULT 0;
ALTER TABLE `zz_savepoint_player` ADD `player_undo_points` INT(10) UNSIGNED NOT NULL DEFAULT 0;

-- A copy of a framework table is not the framework table: it may be created "again".
CREATE TABLE IF NOT EXISTS `zz_savepoint_stats` (
  `stats_id` INT(10) UNSIGNED NOT NULL,
  PRIMARY KEY (`stats_id`)
);
