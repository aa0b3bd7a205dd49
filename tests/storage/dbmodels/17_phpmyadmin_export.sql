-- phpMyAdmin SQL Dump
-- version 4.9.5
--
-- Host: localhost
-- Generation Time: Jan 01, 2021 at 10:00 AM

SET SQL_MODE = "NO_AUTO_VALUE_ON_ZERO";
START TRANSACTION;
SET time_zone = "+00:00";

/*!40101 SET @OLD_CHARACTER_SET_CLIENT=@@CHARACTER_SET_CLIENT */;
/*!40101 SET NAMES utf8mb4 */;

--
-- Table structure for table `meeple`
--

CREATE TABLE `meeple` (
  `meeple_id` int(10) UNSIGNED NOT NULL AUTO_INCREMENT,
  `meeple_color` varchar(6) COLLATE utf8_unicode_ci NOT NULL,
  `meeple_location` varchar(32) CHARACTER SET utf8 COLLATE utf8_unicode_ci NOT NULL DEFAULT 'supply',
  `meeple_location_arg` int(11) NOT NULL DEFAULT '0',
  PRIMARY KEY (`meeple_id`),
  KEY `meeple_location` (`meeple_location`,`meeple_location_arg`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8 COLLATE=utf8_unicode_ci;

COMMIT;
