-- ------
-- Arena test corpus: index names reused across tables (MySQL scopes them per table).
-- ------

CREATE TABLE `worker` (
  `worker_id` int(10) unsigned NOT NULL AUTO_INCREMENT,
  `player_id` int(10) unsigned NOT NULL,
  `worker_location` varchar(32) NOT NULL,
  PRIMARY KEY (`worker_id`),
  KEY `player` (`player_id`),
  KEY `location` (`worker_location`, `player_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8;

CREATE TABLE `resource` (
  `resource_id` int(10) unsigned NOT NULL AUTO_INCREMENT,
  `player_id` int(10) unsigned NOT NULL,
  `resource_type` varchar(16) NOT NULL,
  `resource_count` int(10) NOT NULL DEFAULT 0,
  PRIMARY KEY (`resource_id`),
  KEY `player` (`player_id`),
  UNIQUE KEY `player_type` (`player_id`, `resource_type`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8;

CREATE TABLE `objective` (
  `objective_id` int(10) unsigned NOT NULL,
  `player_id` int(10) unsigned NOT NULL,
  PRIMARY KEY (`objective_id`),
  KEY `player` (`player_id`)
);

CREATE TABLE `score_log` (
  `log_id` int(10) unsigned NOT NULL AUTO_INCREMENT PRIMARY KEY,
  `player_id` int(10) unsigned NOT NULL,
  `points` int(10) NOT NULL,
  INDEX `player` (`player_id`),
  INDEX (`points`)
);

CREATE TABLE `bonus` (
  `bonus_id` int(10) unsigned NOT NULL,
  `player_id` int(10) unsigned DEFAULT NULL,
  `bonus_code` varchar(8) NOT NULL UNIQUE,
  PRIMARY KEY (`bonus_id`),
  KEY `player` (`player_id`)
);

CREATE INDEX `code_player` ON `bonus` (`bonus_code`, `player_id`);
