-- The schema of the query corpus: the shapes BGA games declare (a Deck's card table, player
-- columns, a board, tokens, a JSON blob, a move history, a camelCase table).

ALTER TABLE `player` ADD `player_gold` INT(10) NOT NULL DEFAULT 0,
  ADD `player_color_name` VARCHAR(16) NOT NULL DEFAULT '',
  ADD `player_passed` TINYINT(1) NOT NULL DEFAULT 0;

CREATE TABLE IF NOT EXISTS `card` (
  `card_id` int(10) unsigned NOT NULL AUTO_INCREMENT,
  `card_type` varchar(16) NOT NULL,
  `card_type_arg` int(11) NOT NULL,
  `card_location` varchar(16) NOT NULL,
  `card_location_arg` int(11) NOT NULL,
  PRIMARY KEY (`card_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8 AUTO_INCREMENT=1;

CREATE TABLE IF NOT EXISTS `board` (
  `board_x` smallint(5) NOT NULL,
  `board_y` smallint(5) NOT NULL,
  `board_player` int(10) unsigned DEFAULT NULL,
  `board_piece` varchar(16) NOT NULL DEFAULT 'empty',
  PRIMARY KEY (`board_x`, `board_y`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8;

CREATE TABLE IF NOT EXISTS `token` (
  `token_id` int(10) unsigned NOT NULL AUTO_INCREMENT,
  `token_key` varchar(32) NOT NULL,
  `token_location` varchar(32) NOT NULL,
  `token_state` int(10) NOT NULL DEFAULT 0,
  PRIMARY KEY (`token_id`),
  UNIQUE KEY `token_key` (`token_key`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8;

CREATE TABLE IF NOT EXISTS `resource` (
  `resource_player` int(10) unsigned NOT NULL,
  `resource_type` varchar(16) NOT NULL,
  `resource_count` int(10) NOT NULL DEFAULT 0,
  PRIMARY KEY (`resource_player`, `resource_type`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8;

CREATE TABLE IF NOT EXISTS `move_history` (
  `move_id` int(10) unsigned NOT NULL AUTO_INCREMENT,
  `move_player` int(10) unsigned NOT NULL,
  `move_time` DATETIME NOT NULL,
  `move_action` varchar(32) NOT NULL,
  `move_args` TEXT NOT NULL,
  PRIMARY KEY (`move_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8;

CREATE TABLE IF NOT EXISTS `user_preference` (
  `prefId` int(10) unsigned NOT NULL,
  `playerId` int(10) unsigned NOT NULL,
  `prefValue` int(10) NOT NULL DEFAULT 0,
  PRIMARY KEY (`prefId`, `playerId`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8;
