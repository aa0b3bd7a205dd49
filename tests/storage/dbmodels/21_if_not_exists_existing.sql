-- ------
-- Arena test corpus: CREATE TABLE IF NOT EXISTS meeting a table that exists changes nothing:
-- no column, key, index or AUTO_INCREMENT of the second statement reaches the table.
-- ------

CREATE TABLE IF NOT EXISTS `piece` (
  `piece_key` VARCHAR(32) NOT NULL,
  `piece_location` VARCHAR(32) NOT NULL DEFAULT 'box',
  PRIMARY KEY (`piece_key`)
) ENGINE=InnoDB;

CREATE TABLE IF NOT EXISTS `piece` (
  `piece_id` INT(10) UNSIGNED NOT NULL AUTO_INCREMENT,
  `piece_key` VARCHAR(32) NOT NULL,
  `piece_location` VARCHAR(32) NOT NULL,
  PRIMARY KEY (`piece_id`),
  UNIQUE KEY `piece_location` (`piece_location`),
  KEY `piece_key` (`piece_key`)
) ENGINE=InnoDB AUTO_INCREMENT=10;
