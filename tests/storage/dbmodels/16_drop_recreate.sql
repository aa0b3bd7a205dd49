-- ------
-- Arena test corpus: drop-and-recreate, and an AUTO_INCREMENT column that is not the
-- whole primary key.
-- ------

DROP TABLE IF EXISTS `market`;
CREATE TABLE IF NOT EXISTS `market` (
  `market_slot` tinyint(3) unsigned NOT NULL,
  `market_card` int(10) unsigned DEFAULT NULL,
  PRIMARY KEY (`market_slot`)
);
CREATE TABLE IF NOT EXISTS `market` (
  `market_slot` tinyint(3) unsigned NOT NULL,
  PRIMARY KEY (`market_slot`)
);

CREATE TABLE IF NOT EXISTS `auction` (
  `auction_id` int(10) unsigned NOT NULL AUTO_INCREMENT,
  `auction_round` int(10) unsigned NOT NULL,
  `auction_bid` int(10) NOT NULL DEFAULT 0,
  PRIMARY KEY (`auction_round`, `auction_id`),
  KEY (`auction_id`)
) ENGINE=InnoDB;
