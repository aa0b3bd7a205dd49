-- Belote: the 32 cards (Deck component), the bids and card plays of every hand, the score
-- sheet and a replayable record of each finished hand.

-- card_type is the suit letter (S H D C), card_type_arg the rank index in the order
-- 7 8 9 J Q K T A (0..7). Locations: deck (arg = position), turned (classic turned-up
-- card), hand (arg = player id), taken (arg = winner's player id). A card played stays in
-- its player's hand location until its trick is gathered (the card_play row says it was
-- played); tables of older releases may hold such cards in trick (arg = player id).
CREATE TABLE IF NOT EXISTS `card` (
  `card_id` int(10) unsigned NOT NULL AUTO_INCREMENT,
  `card_type` varchar(16) NOT NULL,
  `card_type_arg` int(11) NOT NULL,
  `card_location` varchar(16) NOT NULL,
  `card_location_arg` int(11) NOT NULL,
  PRIMARY KEY (`card_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8 AUTO_INCREMENT=1;

-- Every bid in order (bid codes of rules.Bid); seats are player_no - 1.
CREATE TABLE IF NOT EXISTS `bid` (
  `bid_id` int(10) unsigned NOT NULL AUTO_INCREMENT,
  `bid_hand` int(10) unsigned NOT NULL,
  `bid_seat` tinyint(1) unsigned NOT NULL,
  `bid_code` varchar(16) NOT NULL,
  PRIMARY KEY (`bid_id`),
  KEY `bid_hand` (`bid_hand`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8 AUTO_INCREMENT=1;

-- Every card played in order (card codes such as JS).
CREATE TABLE IF NOT EXISTS `card_play` (
  `play_id` int(10) unsigned NOT NULL AUTO_INCREMENT,
  `play_hand` int(10) unsigned NOT NULL,
  `play_seat` tinyint(1) unsigned NOT NULL,
  `play_card` varchar(2) NOT NULL,
  PRIMARY KEY (`play_id`),
  KEY `play_hand` (`play_hand`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8 AUTO_INCREMENT=1;

-- The score sheet: one row per played hand, points of team 0 (seats 0 and 2) and team 1,
-- running totals, and the breakdown (rules.HandScore.to_dict plus names) as JSON.
CREATE TABLE IF NOT EXISTS `hand_score` (
  `hand_no` int(10) unsigned NOT NULL,
  `hand_dealer` tinyint(1) unsigned NOT NULL,
  `hand_taker` tinyint(1) unsigned NOT NULL,
  `hand_contract` varchar(64) NOT NULL,
  `hand_outcome` varchar(16) NOT NULL,
  `hand_points0` int(11) NOT NULL,
  `hand_points1` int(11) NOT NULL,
  `hand_total0` int(11) NOT NULL,
  `hand_total1` int(11) NOT NULL,
  `hand_breakdown` text NOT NULL,
  PRIMARY KEY (`hand_no`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8;

-- A hand record (records.record_from_state, JSON) of each played hand, for replays and
-- bug reports: `arena belote replay`.
CREATE TABLE IF NOT EXISTS `hand_record` (
  `record_hand` int(10) unsigned NOT NULL,
  `record_json` text NOT NULL,
  PRIMARY KEY (`record_hand`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8;
