-- ------
-- Arena test corpus: every common MySQL column type, with comments and odd defaults.
-- ------

CREATE TABLE IF NOT EXISTS `stock` (
  `stock_id` bigint(20) unsigned NOT NULL AUTO_INCREMENT COMMENT 'row id',
  `price` DECIMAL(5,2) NOT NULL DEFAULT '0.00' COMMENT 'in coins',
  `ratio` DOUBLE NOT NULL DEFAULT 0,
  `weight` FLOAT DEFAULT NULL,
  `label` VARCHAR(20) NOT NULL DEFAULT 0,
  `code` CHAR(3) NOT NULL DEFAULT 'AAA',
  `small` SMALLINT NOT NULL DEFAULT -1,
  `medium` MEDIUMINT(8) UNSIGNED NOT NULL DEFAULT 0,
  `big` BIGINT NOT NULL DEFAULT 0,
  `notes` TEXT,
  `history` MEDIUMTEXT,
  `archive` LONGTEXT,
  `blob_data` BLOB,
  `seen_at` DATETIME DEFAULT NULL,
  PRIMARY KEY (`stock_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci AUTO_INCREMENT=1;
