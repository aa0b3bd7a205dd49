-- ------
-- Arena test corpus: enums and JSON payloads.
-- ------

CREATE TABLE IF NOT EXISTS `building` (
  `building_id` int(10) unsigned NOT NULL AUTO_INCREMENT,
  `building_kind` ENUM('farm','mill','tower') NOT NULL DEFAULT 'farm',
  `building_state` enum('hidden','visible','destroyed') NOT NULL,
  `building_owner` int(10) unsigned NULL,
  `building_data` JSON NULL,
  PRIMARY KEY (`building_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8 AUTO_INCREMENT=1;

CREATE TABLE IF NOT EXISTS `undo_state` (
  `undo_id` int(10) unsigned NOT NULL AUTO_INCREMENT,
  `undo_player` int(10) unsigned NOT NULL,
  `undo_payload` json NOT NULL,
  PRIMARY KEY (`undo_id`)
);

ALTER TABLE `player` ADD `player_private_state` JSON DEFAULT NULL;
