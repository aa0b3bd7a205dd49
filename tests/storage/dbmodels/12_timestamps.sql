-- ------
-- Arena test corpus: timestamps and dates.
-- ------

CREATE TABLE IF NOT EXISTS `action_log` (
  `action_id` int(10) unsigned NOT NULL AUTO_INCREMENT,
  `action_player` int(10) unsigned NOT NULL,
  `action_name` varchar(32) NOT NULL,
  `created_at` TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
  `updated_at` TIMESTAMP NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP,
  `played_on` DATETIME DEFAULT NULL,
  `day` DATE DEFAULT NULL,
  PRIMARY KEY (`action_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8;
