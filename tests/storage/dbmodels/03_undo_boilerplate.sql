-- ------
-- Arena test corpus: the undo boilerplate many games copy, and commented-out experiments.
-- ------

--ALTER TABLE `player` ADD `player_old_column` INT NOT NULL;
--------
-- Undo support: mark cancelled notifications
ALTER TABLE `gamelog` ADD `cancel` TINYINT(1) NOT NULL DEFAULT 0;

CREATE TABLE IF NOT EXISTS `user_preferences` (
  `id` int(10) unsigned NOT NULL AUTO_INCREMENT,
  `player_id` int(10) NOT NULL,
  `pref_id` int(10) NOT NULL,
  `pref_value` int(10) NOT NULL,
  PRIMARY KEY (`id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8 AUTO_INCREMENT=1;

#ALTER TABLE `gamelog` ADD `gamelog_extra` INT;
/* Undo snapshots are kept by the framework:
   nothing to declare here. */
ALTER TABLE `player` ADD `player_undo_move` INT(10) UNSIGNED NOT NULL DEFAULT 0;
