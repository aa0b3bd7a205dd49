-- ------
-- Arena test corpus: names in mixed and upper case (queries later use any case).
-- ------

CREATE TABLE IF NOT EXISTS `INFLUENCE` (
  `influence_id` INT(10) UNSIGNED NOT NULL AUTO_INCREMENT,
  `Region` VARCHAR(20) NOT NULL,
  `playerId` INT(10) UNSIGNED NOT NULL,
  `cubeCount` TINYINT UNSIGNED NOT NULL DEFAULT 0,
  PRIMARY KEY (`influence_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8;

CREATE TABLE IF NOT EXISTS cardsInPlay (
  cardId INT(10) UNSIGNED NOT NULL,
  cardInPlay TINYINT(1) NOT NULL DEFAULT 0,
  PRIMARY KEY (cardId)
);

ALTER TABLE player ADD playerColorName VARCHAR(16) NOT NULL DEFAULT 'none';
