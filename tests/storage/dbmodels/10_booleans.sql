-- ------
-- Arena test corpus: MySQL booleans (integers in disguise).
-- ------

CREATE TABLE IF NOT EXISTS `card_flags` (
  `card_id` int(10) unsigned NOT NULL,
  `revealed` BOOLEAN DEFAULT 0,
  `tapped` TINYINT DEFAULT TRUE,
  `discarded` BOOL NOT NULL DEFAULT FALSE,
  `visible` tinyint(1) NOT NULL DEFAULT '1',
  PRIMARY KEY (`card_id`)
) ENGINE=InnoDB;

ALTER TABLE `player` ADD `player_has_passed` BOOLEAN NOT NULL DEFAULT 0;
