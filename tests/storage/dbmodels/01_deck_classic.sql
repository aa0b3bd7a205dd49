
-- ------
-- Arena test corpus: a trick-taking card game, as generated from the BGA game template.
-- dbmodel.sql
-- ------

-- This is the file where you are describing the database schema of your game.
-- Basically, you just have to export from PhpMyAdmin your table structure and copy/paste
-- this export here.

-- Note: The database schema is created from this file when the game starts. If you modify
-- this file, you have to restart a game to see your changes in the database.

-- Example 1: create a standard "card" table to be used with the "Deck" tools:

CREATE TABLE IF NOT EXISTS `card` (
  `card_id` int(10) unsigned NOT NULL AUTO_INCREMENT,
  `card_type` varchar(16) NOT NULL,
  `card_type_arg` int(11) NOT NULL,
  `card_location` varchar(16) NOT NULL,
  `card_location_arg` int(11) NOT NULL,
  PRIMARY KEY (`card_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8 AUTO_INCREMENT=1 ;

-- Example 2: add a custom field to the standard "player" table
ALTER TABLE `player` ADD `player_tricks` INT UNSIGNED NOT NULL DEFAULT '0';
