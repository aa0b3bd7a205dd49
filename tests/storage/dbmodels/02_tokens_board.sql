-- ------
-- Arena test corpus: a worker placement game with tokens and a hex board.
-- ------

CREATE TABLE IF NOT EXISTS `token` (
  `token_key` varchar(32) NOT NULL,
  `token_location` varchar(32) NOT NULL,
  `token_state` int(10),
  PRIMARY KEY (`token_key`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8;

-- the board: one row per hex, composite primary key
CREATE TABLE IF NOT EXISTS `board` (
  `board_x` smallint(5) NOT NULL,
  `board_y` smallint(5) NOT NULL,
  `board_terrain` varchar(16) NOT NULL DEFAULT 'plain',
  `board_player` int(10) unsigned DEFAULT NULL,
  `board_visible` tinyint(1) NOT NULL DEFAULT '0',
  PRIMARY KEY (`board_x`,`board_y`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8;

CREATE TABLE IF NOT EXISTS `move` (
  `move_id` int(10) unsigned NOT NULL AUTO_INCREMENT,
  `move_player` int(10) unsigned NOT NULL,
  `from` varchar(10) NOT NULL,
  `to` varchar(10) NOT NULL,
  `order` int(10) unsigned NOT NULL DEFAULT '0',
  PRIMARY KEY (`move_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8 AUTO_INCREMENT=1;
