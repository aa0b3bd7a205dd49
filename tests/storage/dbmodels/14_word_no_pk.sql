-- ------
-- Arena test corpus: a word game; a column named like its table, tables without a key.
-- ------

CREATE TABLE IF NOT EXISTS `word` (
  `word` varchar(32) NOT NULL,
  `word_player` int(10) unsigned NOT NULL,
  `word_points` int(10) NOT NULL DEFAULT 0
) ENGINE=InnoDB DEFAULT CHARSET=utf8;

CREATE TABLE IF NOT EXISTS `letter_bag` (
  `letter` char(1) NOT NULL,
  `letter_count` smallint(5) unsigned NOT NULL DEFAULT '0'
);
