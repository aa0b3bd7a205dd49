-- ------
-- Arena test corpus: static data inserted at creation, and a table built from a SELECT.
-- ------

CREATE TABLE IF NOT EXISTS `region` (
  `region_id` tinyint(3) unsigned NOT NULL,
  `region_name` varchar(32) NOT NULL,
  `region_value` int(10) NOT NULL DEFAULT '1',
  PRIMARY KEY (`region_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8;

INSERT INTO `region` (`region_id`, `region_name`, `region_value`) VALUES
(1, 'North', 3),
(2, 'South', 2),   -- the desert
(3, 'East', 1),
(4, 'West''s end', 4);

INSERT INTO `region` VALUES (5, "Center", 5);

CREATE TABLE `region_copy` AS SELECT `region_id`, `region_name` FROM `region` WHERE `region_value` > 2;
