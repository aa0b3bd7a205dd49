-- ------
-- Arena test corpus: foreign keys (kept; SQLite enforces them with PRAGMA foreign_keys=ON).
-- ------

CREATE TABLE IF NOT EXISTS `deck` (
  `deck_id` int(10) unsigned NOT NULL AUTO_INCREMENT,
  `deck_name` varchar(20) NOT NULL,
  PRIMARY KEY (`deck_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8;

CREATE TABLE IF NOT EXISTS `deck_card` (
  `card_id` int(10) unsigned NOT NULL AUTO_INCREMENT,
  `deck_id` int(10) unsigned NOT NULL,
  `card_value` int(10) NOT NULL,
  PRIMARY KEY (`card_id`),
  KEY `deck_id` (`deck_id`),
  CONSTRAINT `deck_card_fk` FOREIGN KEY (`deck_id`) REFERENCES `deck` (`deck_id`) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8;
