-- ------
-- Arena test corpus: reserved words as column names (backquoted, as MySQL requires).
-- ------

CREATE TABLE IF NOT EXISTS `tile` (
  `tile_id` int(10) unsigned NOT NULL AUTO_INCREMENT,
  `table` varchar(16) NOT NULL DEFAULT 'main',
  `primary` tinyint(1) NOT NULL DEFAULT 0,
  `order` int(10) NOT NULL DEFAULT 0,
  `column` int(10) NOT NULL,
  `group` varchar(16) DEFAULT NULL,
  `from` int(10) DEFAULT NULL,
  `to` int(10) DEFAULT NULL,
  `key` varchar(8) DEFAULT NULL,
  `user` varchar(8) DEFAULT NULL,
  PRIMARY KEY (`tile_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8 AUTO_INCREMENT=1;
