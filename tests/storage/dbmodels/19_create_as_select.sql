-- ------
-- Arena test corpus: CREATE TABLE ... AS SELECT, the structure-only copy idiom
-- (WHERE FALSE IS TRUE) and a copy with rows. MariaDB keeps each column's type, NOT NULL,
-- default and ON UPDATE, and no key, CHECK nor AUTO_INCREMENT.
-- ------

CREATE TABLE IF NOT EXISTS `card` (
  `card_id` INT(10) UNSIGNED NOT NULL AUTO_INCREMENT,
  `card_type` VARCHAR(16) NOT NULL,
  `card_kind` ENUM('plain','gold') NOT NULL DEFAULT 'plain',
  `card_location` VARCHAR(16) NOT NULL DEFAULT 'deck',
  `card_location_arg` INT(11) NOT NULL,
  `card_note` VARCHAR(32) NULL,
  `card_seen` DATETIME NULL DEFAULT CURRENT_TIMESTAMP,
  PRIMARY KEY (`card_id`),
  UNIQUE KEY `card_type_kind` (`card_type`, `card_kind`),
  KEY `card_location` (`card_location`, `card_location_arg`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8 AUTO_INCREMENT=1;

INSERT INTO `card` (`card_type`, `card_location_arg`) VALUES ('heart', 1), ('spade', 2);

CREATE TABLE `card_undo` AS SELECT * FROM `card` WHERE FALSE IS TRUE;
CREATE TABLE `card_short` AS SELECT c.card_id AS id, c.card_kind FROM `card` c WHERE 0;
CREATE TABLE `card_snapshot` AS SELECT `card_id`, `card_type` FROM `card` WHERE `card_location` = 'deck';
CREATE TABLE `player_undo` AS SELECT * FROM `player` WHERE FALSE IS TRUE;
