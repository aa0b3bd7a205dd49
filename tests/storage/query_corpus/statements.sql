-- The query corpus: statements of the shapes BGA games send, run in this order on the same
-- schema (dbmodel.sql) through a game table's db_query on SQLite, PostgreSQL and MariaDB, and
-- compared with MariaDB's own answer to the same text (rows, column names, affected rows,
-- last id). Directives, on the comment lines just above a statement:
--   -- params: [json]          the %s parameters
--   -- rand                    seeded RAND(): compared between Arena's backends only
--   -- departs: <backends> <aspect>   a documented departure (docs/sql.md), aspect one of
--                              rows, names, affected, last_id
-- Each statement ends with ';' at the end of a line.

-- Setting up a table: players, globals
INSERT INTO player (player_id, player_no, player_name, player_color, player_canal, player_avatar)
  VALUES (2301, 1, 'ann', 'ff0000', '', ''), (2302, 2, 'bob', '008000', '', ''),
  (2303, 3, 'cid', '0000ff', '', '');
INSERT INTO global (global_id, global_value) VALUES (10, 0), (11, 1);
INSERT INTO global (global_id, global_value) VALUES (12, 5) ON DUPLICATE KEY UPDATE global_value = VALUES(global_value);
INSERT INTO global (global_id, global_value) VALUES (12, 7) ON DUPLICATE KEY UPDATE global_value = VALUES(global_value);
INSERT INTO global (global_id, global_value) VALUES (12, 7) ON DUPLICATE KEY UPDATE global_value = VALUES(global_value);
INSERT INTO global (global_id, global_value) VALUES (10, 3), (13, 1) ON DUPLICATE KEY UPDATE global_value = VALUES(global_value);
INSERT INTO global (global_id, global_value) VALUES (11, 1) ON DUPLICATE KEY UPDATE global_value = global_value + 1;
SELECT global_id, global_value FROM global ORDER BY global_id;
REPLACE INTO global (global_id, global_value) VALUES (14, 2);
REPLACE INTO global (global_id, global_value) VALUES (14, 9);
REPLACE INTO global VALUES (14, 9);
INSERT IGNORE INTO global (global_id, global_value) VALUES (10, 100);
INSERT IGNORE INTO global (global_id, global_value) VALUES (15, 100), (10, 1);
DELETE FROM global WHERE global_id = 15;
SELECT global_value FROM global WHERE global_id = 12;
SELECT global_id, global_value FROM `global` WHERE global_id IN (10, 11, 12, 13, 14) ORDER BY global_id DESC;

-- A Deck: creating cards, drawing, counting
INSERT INTO card (card_type, card_type_arg, card_location, card_location_arg) VALUES
  ('heart', 7, 'deck', 0), ('heart', 8, 'deck', 1), ('heart', 9, 'deck', 2),
  ('spade', 7, 'deck', 3), ('spade', 8, 'deck', 4), ('spade', 9, 'deck', 5),
  ('club', 7, 'deck', 6), ('club', 8, 'deck', 7), ('club', 9, 'deck', 8),
  ('diamond', 7, 'deck', 9), ('diamond', 8, 'deck', 10), ('diamond', 9, 'deck', 11);
INSERT INTO card (card_type, card_type_arg, card_location, card_location_arg) VALUES ('joker', 0, 'box', 0);
SELECT COUNT(*) AS n FROM card;
SELECT card_id id, card_type type, card_type_arg type_arg, card_location location, card_location_arg location_arg
  FROM card WHERE card_location = 'deck' ORDER BY card_location_arg DESC LIMIT 3;
UPDATE card SET card_location = 'hand', card_location_arg = 2301 WHERE card_location = 'deck' ORDER BY card_location_arg DESC LIMIT 3;
UPDATE card SET card_location = 'hand', card_location_arg = 2302 WHERE card_location = 'deck' ORDER BY card_location_arg DESC LIMIT 3;
SELECT card_location, card_location_arg, COUNT(*) AS nbr FROM card GROUP BY card_location, card_location_arg ORDER BY card_location, card_location_arg;
SELECT card_id, card_type, card_type_arg, card_location, card_location_arg FROM card WHERE card_location = 'hand' AND card_location_arg = 2301 ORDER BY card_type, card_type_arg;
UPDATE card SET card_location = 'hand' WHERE card_location = 'hand';
UPDATE card SET card_location = 'table', card_location_arg = 2301 WHERE card_id =
  (SELECT m FROM (SELECT MIN(card_id) AS m FROM card WHERE card_location = 'hand' AND card_location_arg = 2301) AS c2);
SELECT card_type, SUM(card_type_arg) AS total, MAX(card_type_arg) AS best FROM card WHERE card_location <> 'box'
  GROUP BY card_type HAVING COUNT(*) >= 3 ORDER BY card_type;
SELECT c.card_id, p.player_name FROM card c JOIN player p ON p.player_id = c.card_location_arg WHERE c.card_location = 'hand' ORDER BY c.card_id;
SELECT p.player_id, COUNT(c.card_id) AS cards FROM player p LEFT JOIN card c ON c.card_location = 'hand' AND c.card_location_arg = p.player_id
  GROUP BY p.player_id ORDER BY p.player_id;
SELECT card_id FROM card WHERE card_type IN ('heart', 'spade') AND card_type_arg BETWEEN 7 AND 8 ORDER BY card_id;
SELECT CASE WHEN card_type_arg >= 9 THEN 'high' WHEN card_type_arg = 8 THEN 'mid' ELSE 'low' END AS band, COUNT(*) AS n
  FROM card GROUP BY band ORDER BY band;
SELECT IF(card_location = 'deck', 1, 0) AS in_deck, COUNT(*) AS n FROM card GROUP BY in_deck ORDER BY in_deck;
SELECT GROUP_CONCAT(card_id ORDER BY card_id SEPARATOR ',') AS ids FROM card WHERE card_location = 'deck';
SELECT card_location, GROUP_CONCAT(DISTINCT card_type ORDER BY card_type DESC SEPARATOR '|') AS types FROM card
  GROUP BY card_location ORDER BY card_location;
SELECT card_location_arg, GROUP_CONCAT(card_type_arg ORDER BY card_type_arg DESC) AS args FROM card WHERE card_location = 'hand'
  GROUP BY card_location_arg ORDER BY card_location_arg;
SELECT COALESCE(MAX(card_location_arg), -1) + 1 AS next_pos FROM card WHERE card_location = 'discard';
UPDATE card SET card_location = 'discard', card_location_arg =
  (SELECT n FROM (SELECT COALESCE(MAX(card_location_arg), -1) + 1 AS n FROM card WHERE card_location = 'discard') AS d) WHERE card_id = 1;
UPDATE card SET card_location = 'discard', card_location_arg =
  (SELECT n FROM (SELECT COALESCE(MAX(card_location_arg), -1) + 1 AS n FROM card WHERE card_location = 'discard') AS d) WHERE card_id = 2;
SELECT card_id, card_location_arg FROM card WHERE card_location = 'discard' ORDER BY card_location_arg;
DELETE FROM card WHERE card_type = 'joker';
SELECT MAX(card_id) AS m FROM card;
INSERT INTO card (card_type, card_type_arg, card_location, card_location_arg)
  SELECT 'copy', card_type_arg, 'box', card_id FROM card WHERE card_type = 'heart' ORDER BY card_id;
SELECT card_id, card_type_arg, card_location_arg FROM card WHERE card_type = 'copy' ORDER BY card_id;
DELETE FROM card WHERE card_type = 'copy';
UPDATE card SET card_location_arg = card_location_arg + 1 WHERE card_location = 'deck' AND card_location_arg >= 3;
SELECT card_id, card_location_arg FROM card WHERE card_location = 'deck' ORDER BY card_location_arg;
UPDATE card SET card_location = 'deck', card_location_arg = 3 WHERE card_id = 2;
SELECT card_id FROM card WHERE card_location = 'deck' AND card_location_arg = 3;

-- Players and scores
UPDATE player SET player_score = player_score + 5 WHERE player_id = 2301;
UPDATE player SET player_score = player_score + 3, player_score_aux = 1 WHERE player_id IN (2302, 2303);
SELECT player_id id, player_score score FROM player ORDER BY player_score DESC, player_id;
SELECT player_id, player_name, player_color, player_score, player_no FROM player ORDER BY player_no;
UPDATE player SET player_score = 0 WHERE player_score < 0;
SELECT SUM(player_score) AS total, AVG(player_score) AS mean, MIN(player_score) AS lo FROM player;
SELECT player_id FROM player WHERE player_score = (SELECT MAX(player_score) FROM player);
UPDATE player SET player_is_multiactive = 1 WHERE player_zombie = 0 AND player_eliminated = 0;
SELECT COUNT(*) AS n FROM player WHERE player_is_multiactive = 1;
UPDATE player SET player_is_multiactive = 0 WHERE player_id = 2302;
SELECT player_id FROM player WHERE player_is_multiactive ORDER BY player_id;
SELECT player_id, player_no FROM player WHERE player_no > (SELECT player_no FROM player WHERE player_id = 2301) ORDER BY player_no LIMIT 1;
SELECT player_id FROM player ORDER BY player_no LIMIT 1;
UPDATE player SET player_gold = player_gold + 2, player_passed = 1 WHERE player_id = 2303;
SELECT player_id, player_gold, player_passed FROM player WHERE player_passed = 1;
UPDATE player SET player_color_name = CONCAT('c_', player_color);
SELECT player_color_name FROM player ORDER BY player_id;
SELECT CONCAT(player_name, ' (', player_score, ')') AS label FROM player ORDER BY player_id;
SELECT UPPER(player_name) AS u, LENGTH(player_name) AS l, SUBSTRING(player_name, 1, 2) AS s FROM player ORDER BY player_id;
SELECT LPAD(player_no, 3, '0') AS padded, RPAD(player_name, 5, '.') AS name5, LPAD(player_name, 2, '*') AS cut FROM player ORDER BY player_no;
SELECT CONCAT_WS('-', player_name, player_color, NULL, player_no) AS joined FROM player ORDER BY player_id;
SELECT FIND_IN_SET(player_no, '3,1') AS pos, FIND_IN_SET(player_name, 'bob,ann') AS by_name FROM player ORDER BY player_id;
SELECT SUBSTRING_INDEX('ann,bob,cid', ',', 2) AS first_two, SUBSTRING_INDEX('ann,bob,cid', ',', -1) AS last_one,
  SUBSTRING_INDEX('ann,bob,cid', ',', -5) AS all_of_it;
SELECT SUBSTRING_INDEX(player_color_name, '_', -1) AS hex FROM player ORDER BY player_id;
SELECT TRUNCATE(player_score / 4, 1) AS quarter, TRUNCATE(player_score * 11, -1) AS tens FROM player ORDER BY player_id;
SELECT ROUND(player_score / 3, 2) AS third, FLOOR(player_score / 2) AS half, CEIL(player_score / 2) AS up,
  ABS(player_score - 10) AS dist, MOD(player_score, 3) AS m FROM player ORDER BY player_id;
SELECT player_score DIV 2 AS d, player_score % 4 AS r FROM player ORDER BY player_id;
SELECT GREATEST(player_score, 4) AS g, LEAST(player_score, 4) AS l FROM player ORDER BY player_id;
SELECT player_id, player_score FROM player WHERE player_name LIKE 'a%' OR player_name LIKE '%d' ORDER BY player_id;
SELECT COUNT(DISTINCT player_score) AS n FROM player;
SELECT player_id, player_score > 5 AS is_leading, player_score = 8 AS is_eight FROM player ORDER BY player_id;
SELECT NULLIF(player_score, 8) AS s, IFNULL(player_beginner, 'none') AS b FROM player ORDER BY player_id;
UPDATE player SET player_zombie = 1 WHERE player_id = 2303;
SELECT player_id FROM player WHERE NOT player_zombie ORDER BY player_id;
UPDATE player SET player_zombie = 0 WHERE player_id = 2303;

-- A board with a composite key
INSERT INTO board (board_x, board_y) VALUES (1, 1), (1, 2), (1, 3), (2, 1), (2, 2), (2, 3), (3, 1), (3, 2), (3, 3);
UPDATE board SET board_player = 2301, board_piece = 'pawn' WHERE board_x = 2 AND board_y = 2;
UPDATE board SET board_player = 2302, board_piece = 'pawn' WHERE (board_x = 1 AND board_y = 1) OR (board_x = 3 AND board_y = 3);
SELECT board_x x, board_y y, board_player player FROM board WHERE board_player IS NOT NULL ORDER BY board_x, board_y;
SELECT b.board_x, b.board_y FROM board b WHERE b.board_player IS NULL AND EXISTS (SELECT 1 FROM board n WHERE n.board_player = 2301
  AND ABS(n.board_x - b.board_x) <= 1 AND ABS(n.board_y - b.board_y) <= 1) ORDER BY b.board_x, b.board_y;
SELECT board_player, COUNT(*) AS pieces FROM board WHERE board_player IS NOT NULL GROUP BY board_player ORDER BY pieces DESC, board_player;
INSERT INTO board (board_x, board_y, board_player, board_piece) VALUES (2, 2, 2303, 'king')
  ON DUPLICATE KEY UPDATE board_player = VALUES(board_player), board_piece = VALUES(board_piece);
INSERT INTO board (board_x, board_y, board_piece) VALUES (4, 1, 'wall') ON DUPLICATE KEY UPDATE board_piece = 'wall';
INSERT INTO board (board_x, board_y, board_piece) VALUES (4, 1, 'wall') ON DUPLICATE KEY UPDATE board_piece = 'wall';
SELECT COUNT(*) AS n, SUM(board_piece = 'pawn') AS pawns, SUM(board_piece = 'empty') AS empties FROM board;
DELETE FROM board WHERE board_x = 4;
UPDATE board SET board_piece = 'empty', board_player = NULL WHERE board_piece = 'pawn';
SELECT board_x, board_y, board_piece FROM board WHERE board_piece <> 'empty' ORDER BY board_x;
SELECT MIN(board_x) AS minx, MAX(board_y) AS maxy FROM board WHERE board_player IS NULL;
SELECT IFNULL(MAX(board_player), 0) AS top FROM board;
SELECT board_x, COUNT(*) AS n FROM board GROUP BY board_x HAVING n = 3 ORDER BY board_x DESC;

-- Tokens: an AUTO_INCREMENT id and a unique name
INSERT INTO token (token_key, token_location) VALUES ('meeple_1', 'supply'), ('meeple_2', 'supply'), ('meeple_3', 'supply');
INSERT INTO token (token_key, token_location, token_state) VALUES ('meeple_4', 'supply', 0);
UPDATE token SET token_location = 'board', token_state = 2 WHERE token_key = 'meeple_2';
SELECT token_id, token_key, token_location, token_state FROM token ORDER BY token_id;
SELECT token_location, COUNT(*) AS n FROM token GROUP BY token_location ORDER BY token_location;
INSERT IGNORE INTO token (token_key, token_location) VALUES ('meeple_1', 'board');
INSERT INTO token (token_key, token_location, token_state) VALUES ('meeple_2', 'supply', 0) ON DUPLICATE KEY UPDATE token_state = token_state + 1;
UPDATE token SET token_state = 5 WHERE token_id = 3;
REPLACE INTO token (token_id, token_key, token_location) VALUES (3, 'meeple_3', 'supply');
SELECT token_id, token_key, token_location, token_state FROM token WHERE token_id = 3;
REPLACE INTO token (token_id, token_key, token_location) VALUES (3, 'meeple_3', 'bag');
SELECT token_id, token_key, token_location, token_state FROM token WHERE token_id = 3;
REPLACE INTO token (token_id, token_key, token_location, token_state) VALUES (3, 'meeple_3', 'bag', 0);
SELECT token_key FROM token WHERE token_key LIKE 'meeple\_%' AND token_state > 0 ORDER BY token_key;
DELETE FROM token WHERE token_location = 'bag' AND token_state = 0;
SELECT COUNT(*) AS n FROM token;
UPDATE token SET token_state = token_state + 1 WHERE token_location = 'supply' ORDER BY token_id DESC LIMIT 1;
SELECT token_id, token_state FROM token ORDER BY token_id;

-- Resources: a composite key, upserts that add
INSERT INTO resource (resource_player, resource_type, resource_count) VALUES (2301, 'wood', 2)
  ON DUPLICATE KEY UPDATE resource_count = resource_count + VALUES(resource_count);
INSERT INTO resource (resource_player, resource_type, resource_count) VALUES (2301, 'wood', 2)
  ON DUPLICATE KEY UPDATE resource_count = resource_count + VALUES(resource_count);
INSERT INTO resource (resource_player, resource_type, resource_count) VALUES (2301, 'stone', 1), (2302, 'wood', 3)
  ON DUPLICATE KEY UPDATE resource_count = resource_count + VALUES(resource_count);
SELECT resource_player, resource_type, resource_count FROM resource ORDER BY resource_player, resource_type;
UPDATE resource SET resource_count = resource_count - 1 WHERE resource_player = 2301 AND resource_type = 'wood' AND resource_count >= 1;
SELECT resource_type, SUM(resource_count) AS total FROM resource GROUP BY resource_type ORDER BY total DESC;
UPDATE resource SET resource_count = 0 WHERE resource_type = 'stone';
DELETE FROM resource WHERE resource_count = 0;
SELECT p.player_name, r.resource_type, r.resource_count FROM player p INNER JOIN resource r ON r.resource_player = p.player_id
  WHERE r.resource_count > 1 ORDER BY p.player_name, r.resource_type;
UPDATE resource r JOIN player p ON p.player_id = r.resource_player SET r.resource_count = r.resource_count + p.player_gold WHERE p.player_passed = 1;
UPDATE resource r JOIN player p ON p.player_id = r.resource_player SET r.resource_count = r.resource_count * 2 WHERE p.player_no = 1;
SELECT resource_player, resource_count FROM resource ORDER BY resource_player;
DELETE r FROM resource r JOIN player p ON p.player_id = r.resource_player WHERE p.player_no = 2;
SELECT COUNT(*) AS n FROM resource;

-- A move history: dates and JSON
INSERT INTO move_history (move_player, move_time, move_action, move_args) VALUES (2301, '2024-03-01 10:00:00', 'playCard', '{"card": 5, "to": "table"}');
INSERT INTO move_history (move_player, move_time, move_action, move_args) VALUES
  (2302, '2024-03-01 10:05:30', 'pass', '{}'),
  (2301, '2024-03-31 23:59:59', 'buy', '{"items": ["wood", "stone"], "cost": {"gold": 3}}');
SELECT move_id, move_time FROM move_history ORDER BY move_id;
SELECT DATE_ADD(move_time, INTERVAL 1 DAY) AS next_day FROM move_history ORDER BY move_id;
SELECT DATE_SUB(move_time, INTERVAL 30 MINUTE) AS earlier FROM move_history ORDER BY move_id;
SELECT move_time + INTERVAL 1 MONTH AS next_month, move_time - INTERVAL 2 HOUR AS two_hours_before FROM move_history ORDER BY move_id;
SELECT DATE_ADD('2024-01-31', INTERVAL 1 MONTH) AS d1, DATE_ADD('2024-02-29', INTERVAL 1 YEAR) AS d2, DATE_SUB('2024-03-01', INTERVAL 1 DAY) AS d3,
  DATE_ADD('2024-03-01 10:00:00', INTERVAL 90 SECOND) AS d4, DATE_ADD('2024-03-01', INTERVAL 2 WEEK) AS d5;
SELECT TIMESTAMPDIFF(SECOND, '2024-03-01 10:00:00', move_time) AS secs FROM move_history ORDER BY move_id;
SELECT TIMESTAMPDIFF(MINUTE, MIN(move_time), MAX(move_time)) AS span FROM move_history;
SELECT TIMESTAMPDIFF(DAY, '2024-03-01 10:00:00', '2024-03-31 09:00:00') AS days, TIMESTAMPDIFF(MONTH, '2024-01-31', '2024-03-30') AS months,
  TIMESTAMPDIFF(YEAR, '2020-02-29', '2024-02-28') AS years, TIMESTAMPDIFF(HOUR, '2024-03-02', '2024-03-01 01:30:00') AS back;
SELECT UNIX_TIMESTAMP(move_time) AS ts FROM move_history ORDER BY move_id;
SELECT FROM_UNIXTIME(1709287200) AS t;
SELECT move_id FROM move_history WHERE move_time >= '2024-03-01 10:05:00' ORDER BY move_id;
SELECT move_id FROM move_history WHERE move_time < DATE_ADD('2024-03-01 00:00:00', INTERVAL 1 DAY) ORDER BY move_id;
SELECT move_id FROM move_history WHERE TIMESTAMPDIFF(DAY, move_time, '2024-04-01 00:00:00') > 10 ORDER BY move_id;
SELECT JSON_EXTRACT(move_args, '$.card') AS card FROM move_history WHERE move_action = 'playCard';
SELECT JSON_UNQUOTE(JSON_EXTRACT(move_args, '$.to')) AS dest FROM move_history WHERE move_id = 1;
SELECT JSON_EXTRACT(move_args, '$.items[1]') AS second_item, JSON_EXTRACT(move_args, '$.cost') AS cost,
  JSON_EXTRACT(move_args, '$.items') AS items FROM move_history WHERE move_action = 'buy';
SELECT move_id, JSON_EXTRACT(move_args, '$.card') AS card FROM move_history ORDER BY move_id;
SELECT JSON_UNQUOTE(JSON_EXTRACT(move_args, '$.cost.gold')) AS gold FROM move_history WHERE move_action = 'buy';
SELECT move_action, COUNT(*) AS n FROM move_history GROUP BY move_action ORDER BY move_action;
SELECT move_player, MAX(move_time) AS last_move FROM move_history GROUP BY move_player ORDER BY move_player;
DELETE FROM move_history WHERE move_time < '2024-03-01 10:01:00';

-- camelCase columns
INSERT INTO user_preference (prefId, playerId, prefValue) VALUES (100, 2301, 1), (100, 2302, 2), (101, 2301, 0);
SELECT prefId, playerId, prefValue FROM user_preference ORDER BY prefId, playerId;
-- departs: postgresql names
SELECT * FROM user_preference WHERE playerId = 2301 ORDER BY prefId;
INSERT INTO user_preference (prefId, playerId, prefValue) VALUES (100, 2301, 5) ON DUPLICATE KEY UPDATE prefValue = VALUES(prefValue);
SELECT up.prefValue AS value FROM user_preference up WHERE up.prefId = 100 AND up.playerId = 2301;
UPDATE user_preference SET prefValue = 3 WHERE prefId = 101;
SELECT PREFID, PlayerId, prefvalue FROM user_preference WHERE PREFVALUE > 2 ORDER BY playerid;

-- Loose comparisons of strings and numbers
SELECT card_id FROM card WHERE card_type = 'heart' AND card_location_arg = '2301' ORDER BY card_id;
UPDATE card SET card_type = 5 WHERE card_id = 12;
SELECT card_id, card_type FROM card WHERE card_type = 5;
SELECT card_id FROM card WHERE card_type IN (5, 6) ORDER BY card_id;
SELECT card_id FROM card WHERE card_type > 4 ORDER BY card_id;
UPDATE card SET card_type = 'diamond' WHERE card_id = 12;

-- Parameters
-- params: [2301]
SELECT card_id FROM card WHERE card_location = 'hand' AND card_location_arg = %s ORDER BY card_id;
-- params: ["deck"]
SELECT COUNT(*) AS n FROM card WHERE card_location = %s;
-- params: [10, 42]
INSERT INTO global (global_id, global_value) VALUES (%s, %s) ON DUPLICATE KEY UPDATE global_value = VALUES(global_value);
-- params: ["spade", 8]
SELECT card_id FROM card WHERE card_type = %s AND card_type_arg = %s;
-- params: [3, 2303]
UPDATE player SET player_score = player_score + %s WHERE player_id = %s;
-- params: ["%b%"]
SELECT player_name FROM player WHERE player_name LIKE %s ORDER BY player_id;
-- params: [7]
SELECT card_id FROM card WHERE card_type = %s ORDER BY card_id;

-- Subqueries, unions, derived tables, ordering
SELECT card_id FROM card WHERE card_location_arg IN (SELECT player_id FROM player WHERE player_score > 5) ORDER BY card_id;
SELECT player_id AS id FROM player WHERE player_no = 1 UNION SELECT card_location_arg FROM card WHERE card_location = 'hand' ORDER BY id;
SELECT t.card_type, t.n FROM (SELECT card_type, COUNT(*) AS n FROM card GROUP BY card_type) t WHERE t.n > 2 ORDER BY t.card_type;
SELECT card_id, (SELECT player_name FROM player WHERE player_id = card.card_location_arg) AS owner FROM card WHERE card_location = 'hand' ORDER BY card_id;
SELECT DISTINCT card_location FROM card ORDER BY card_location;
SELECT card_type, card_type_arg FROM card ORDER BY card_type_arg DESC, card_type LIMIT 2, 3;
SELECT card_id FROM card ORDER BY FIELD(card_type, 'spade', 'heart', 'club', 'diamond'), card_type_arg LIMIT 5;
SELECT NOT EXISTS (SELECT 1 FROM card WHERE card_location = 'nowhere') AS none_there;
SELECT COUNT(*) AS n FROM card WHERE card_location = 'deck' AND NOT card_type = 'heart';
SELECT card_type, COUNT(*) AS n FROM card GROUP BY card_type ORDER BY n DESC, card_type LIMIT 1;
SELECT c1.card_id, c2.card_id AS other FROM card c1 JOIN card c2 ON c2.card_type = c1.card_type AND c2.card_type_arg = c1.card_type_arg + 1
  WHERE c1.card_type = 'club' ORDER BY c1.card_id;
SELECT player_name FROM player WHERE player_id NOT IN (SELECT card_location_arg FROM card WHERE card_location = 'hand') ORDER BY player_name;
SELECT MAX(card_type_arg) - MIN(card_type_arg) AS spread FROM card WHERE card_location = 'deck';

-- Expressions without an alias are named by their text, as MySQL names them
SELECT COUNT(*) FROM card;
SELECT MAX(player_score), MIN(player_no), count(DISTINCT player_color) FROM player;
SELECT 'literal', 42, player_id FROM player WHERE player_no = 1;
SELECT card_type_arg + 1, UPPER(card_type) FROM card WHERE card_id = 3;

-- Framework tables as games read them
INSERT INTO stats (stats_type, stats_player_id, stats_value) VALUES (10, 2301, 0), (10, 2302, 0);
UPDATE stats SET stats_value = stats_value + 1 WHERE stats_type = 10 AND stats_player_id = 2301;
SELECT stats_type, stats_player_id, stats_value FROM stats ORDER BY stats_id;
INSERT INTO gamelog (gamelog_move_id, gamelog_time, gamelog_type, gamelog_log, gamelog_args)
  VALUES (1, '2024-03-01 10:00:00', 'cardPlayed', '${player_name} plays', '{}');
SELECT MAX(gamelog_packet_id) AS last_packet FROM gamelog;

-- TRUNCATE restarts the counter
TRUNCATE TABLE move_history;
INSERT INTO move_history (move_player, move_time, move_action, move_args) VALUES (2301, '2024-04-01 00:00:00', 'restart', '{}');
SELECT move_id, move_action FROM move_history;
INSERT INTO move_history VALUES (NULL, 2302, '2024-04-01 00:01:00', 'pass', '{}'), (NULL, 2303, '2024-04-01 00:02:00', 'pass', '{}');
INSERT INTO move_history (move_id, move_player, move_time, move_action, move_args) VALUES (10, 2301, '2024-04-01 00:03:00', 'jump', '{}');
INSERT INTO move_history (move_player, move_time, move_action, move_args) VALUES (2302, '2024-04-01 00:04:00', 'after', '{}');
SELECT move_id, move_action FROM move_history ORDER BY move_id;

-- Seeded RAND(): the same answer on every backend of Arena
-- rand
SELECT card_id FROM card WHERE card_location = 'deck' ORDER BY RAND() LIMIT 1;
-- rand
SELECT card_id FROM card ORDER BY RAND();
-- rand
UPDATE card SET card_location_arg = FLOOR(RAND() * 1000) WHERE card_location = 'deck';
-- rand
SELECT card_id, card_location_arg FROM card WHERE card_location = 'deck' ORDER BY card_id;
-- rand
SELECT FLOOR(1 + RAND() * 6) AS die, FLOOR(1 + RAND() * 6) AS other_die;
-- rand
SELECT p.player_id, c.card_id FROM player p JOIN card c ON c.card_location_arg = p.player_id ORDER BY RAND() LIMIT 2;
-- rand
DELETE FROM card WHERE card_location = 'deck' ORDER BY RAND() LIMIT 1;
SELECT COUNT(*) AS n FROM card;
