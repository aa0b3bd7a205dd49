-- The framework's own tables, created in every game table's database before the game's
-- dbmodel.sql. MySQL dialect, in BGA's shapes; translated like any dbmodel.sql.

-- Global values: the game's (ids 10..89), the options (100..199), the framework's (200+).
CREATE TABLE IF NOT EXISTS `global` (
  `global_id` INT(10) UNSIGNED NOT NULL,
  `global_value` INT(10) DEFAULT NULL,
  PRIMARY KEY (`global_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8;

-- Statistics: stats_player_id NULL is a table statistic.
CREATE TABLE IF NOT EXISTS `stats` (
  `stats_id` INT(10) UNSIGNED NOT NULL AUTO_INCREMENT,
  `stats_type` SMALLINT(5) UNSIGNED NOT NULL,
  `stats_player_id` INT(10) UNSIGNED NULL DEFAULT NULL,
  `stats_value` FLOAT NOT NULL,
  PRIMARY KEY (`stats_id`),
  UNIQUE KEY `stats_table_or_player` (`stats_type`, `stats_player_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8 AUTO_INCREMENT=1;

-- The notification log: one row per notification (gamelog_player is the recipient of a
-- private one), replayed to clients and used for replays.
CREATE TABLE IF NOT EXISTS `gamelog` (
  `gamelog_packet_id` INT(10) UNSIGNED NOT NULL AUTO_INCREMENT,
  `gamelog_move_id` INT(10) UNSIGNED NULL DEFAULT NULL,
  `gamelog_private` TINYINT(1) NOT NULL DEFAULT 0,
  `gamelog_player` INT(10) UNSIGNED NULL DEFAULT NULL,
  `gamelog_time` DATETIME NOT NULL,
  `gamelog_type` VARCHAR(64) NOT NULL,
  `gamelog_log` TEXT NOT NULL,   -- the message id (English, translated on the client)
  `gamelog_args` TEXT NOT NULL,  -- JSON
  PRIMARY KEY (`gamelog_packet_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8 AUTO_INCREMENT=1;

-- Players: games add their own columns with ALTER TABLE player ADD ...
CREATE TABLE IF NOT EXISTS `player` (
  `player_no` INT(10) NOT NULL,
  `player_id` INT(10) UNSIGNED NOT NULL,
  `player_canal` VARCHAR(32) NOT NULL DEFAULT '',
  `player_name` VARCHAR(32) NOT NULL,
  `player_avatar` VARCHAR(10) NOT NULL DEFAULT '',
  `player_color` VARCHAR(6) NOT NULL,
  `player_score` INT(10) NOT NULL DEFAULT 0,
  `player_score_aux` INT(10) NOT NULL DEFAULT 0,
  `player_zombie` TINYINT(1) NOT NULL DEFAULT 0,
  `player_ai` TINYINT(1) NOT NULL DEFAULT 0,
  `player_eliminated` TINYINT(1) NOT NULL DEFAULT 0,
  `player_next_notif` INT(10) UNSIGNED NOT NULL DEFAULT 1,
  `player_enter_game` TINYINT(1) NOT NULL DEFAULT 0,
  `player_over_time` TINYINT(1) NOT NULL DEFAULT 0,
  `player_is_multiactive` TINYINT(1) NOT NULL DEFAULT 0,
  `player_start_reflexion_time` DATETIME NULL DEFAULT NULL,
  `player_remaining_reflexion_time` INT(11) NULL DEFAULT NULL,
  `player_beginner` VARCHAR(32) NULL DEFAULT NULL,
  `player_state` INT(10) NULL DEFAULT NULL,
  PRIMARY KEY (`player_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8;

-- Framework bookkeeping (random seed, game release, state machine...).
CREATE TABLE IF NOT EXISTS `arena_meta` (
  `meta_key` VARCHAR(64) NOT NULL,
  `meta_value` TEXT NULL,
  PRIMARY KEY (`meta_key`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8;
