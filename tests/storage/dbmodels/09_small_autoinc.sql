-- ------
-- Arena test corpus: AUTO_INCREMENT on small integer types.
-- ------

CREATE TABLE IF NOT EXISTS `round` (
  `round_id` TINYINT unsigned NOT NULL AUTO_INCREMENT,
  `round_name` varchar(20) NOT NULL,
  PRIMARY KEY (`round_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8;

CREATE TABLE IF NOT EXISTS `phase` (
  `phase_id` SMALLINT(5) NOT NULL AUTO_INCREMENT PRIMARY KEY,
  `phase_round` TINYINT unsigned NOT NULL,
  `phase_label` varchar(20) NOT NULL DEFAULT ''
) ENGINE=InnoDB DEFAULT CHARSET=utf8 AUTO_INCREMENT=100;

CREATE TABLE IF NOT EXISTS `turn` (
  `turn_id` MEDIUMINT UNSIGNED NOT NULL AUTO_INCREMENT,
  `turn_player` INT UNSIGNED NOT NULL,
  PRIMARY KEY (turn_id)
);
