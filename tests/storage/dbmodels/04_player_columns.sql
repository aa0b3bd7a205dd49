-- ------
-- Arena test corpus: a game adding many columns to the player table, in every MySQL form.
-- ------

ALTER TABLE `player` ADD `player_money` INT(10) UNSIGNED NOT NULL DEFAULT '10', ADD `player_vp` INT(10) NOT NULL DEFAULT '0', ADD `player_passed` TINYINT(1) NOT NULL DEFAULT '0';
ALTER TABLE `player` ADD COLUMN `player_first` BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE `player` ADD ( `player_wood` SMALLINT UNSIGNED NOT NULL, `player_stone` SMALLINT UNSIGNED NOT NULL );
ALTER TABLE `player` ADD `player_faction` VARCHAR(16) NOT NULL; -- chosen during setup
ALTER TABLE `player` ADD `player_order` INT(10) NOT NULL DEFAULT 0 COMMENT 'turn order', ADD `player_note` TEXT;
