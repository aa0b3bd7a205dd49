-- ------
-- Arena test corpus: CREATE TABLE ... LIKE keeps everything (keys, AUTO_INCREMENT, defaults,
-- the columns added since), but the counter starts again at 1.
-- ------

CREATE TABLE `token` (
  `token_id` INT(10) UNSIGNED NOT NULL AUTO_INCREMENT,
  `token_key` VARCHAR(32) NOT NULL,
  `token_state` INT(10) NOT NULL DEFAULT 0,
  PRIMARY KEY (`token_id`),
  UNIQUE KEY `token_key` (`token_key`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8 AUTO_INCREMENT=100;

ALTER TABLE `token` ADD `token_owner` INT(10) UNSIGNED NOT NULL DEFAULT 7;

CREATE TABLE `token_undo` LIKE `token`;
-- already there: changes nothing
CREATE TABLE IF NOT EXISTS `token_undo` LIKE `player`;
CREATE TABLE `player_copy` LIKE `player`;
