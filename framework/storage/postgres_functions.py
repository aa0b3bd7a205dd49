"""MySQL's functions that PostgreSQL lacks, created as ``pg_temp.arena_*`` in every new
connection (so every table's schema has them, old tables included, with no migration; the
translation in ``framework.storage.sql.mysql_functions`` calls them qualified)."""

from __future__ import annotations

FUNCTIONS = r"""
CREATE FUNCTION pg_temp.arena_substring_index(s text, d text, n bigint) RETURNS text
LANGUAGE sql IMMUTABLE AS $f$
  SELECT CASE
    WHEN s IS NULL OR d IS NULL OR n IS NULL THEN NULL
    WHEN d = '' OR n = 0 THEN ''
    WHEN n > 0 THEN array_to_string((string_to_array(s, d))[1:n], d)
    ELSE array_to_string((string_to_array(s, d))[
      greatest(cardinality(string_to_array(s, d)) + n + 1, 1):cardinality(string_to_array(s, d))], d)
  END
$f$;
CREATE FUNCTION pg_temp.arena_find_in_set(needle text, haystack text) RETURNS bigint
LANGUAGE sql IMMUTABLE AS $f$
  SELECT CASE
    WHEN needle IS NULL OR haystack IS NULL THEN NULL
    WHEN position(',' in needle) > 0 OR haystack = '' THEN 0
    ELSE COALESCE(array_position(string_to_array(haystack, ','), needle), 0)
  END
$f$;
CREATE FUNCTION pg_temp.arena_timestampdiff(unit text, a text, b text) RETURNS bigint
LANGUAGE plpgsql IMMUTABLE AS $f$
DECLARE
  x timestamp := a::timestamp;
  y timestamp := b::timestamp;
  months bigint;
BEGIN
  IF x IS NULL OR y IS NULL THEN RETURN NULL; END IF;
  IF unit IN ('SECOND', 'MINUTE', 'HOUR', 'DAY', 'WEEK') THEN
    RETURN trunc(extract(epoch FROM y - x) / CASE unit WHEN 'SECOND' THEN 1 WHEN 'MINUTE' THEN 60
      WHEN 'HOUR' THEN 3600 WHEN 'DAY' THEN 86400 ELSE 604800 END);
  END IF;
  months := (extract(year FROM y) - extract(year FROM x)) * 12
            + extract(month FROM y) - extract(month FROM x);
  IF months > 0 AND (extract(day FROM y), y::time) < (extract(day FROM x), x::time) THEN
    months := months - 1;
  ELSIF months < 0 AND (extract(day FROM y), y::time) > (extract(day FROM x), x::time) THEN
    months := months + 1;
  END IF;
  RETURN trunc(months::numeric / CASE unit WHEN 'MONTH' THEN 1 WHEN 'QUARTER' THEN 3 ELSE 12 END);
END
$f$;
CREATE FUNCTION pg_temp.arena_unix_timestamp(d text) RETURNS bigint
LANGUAGE sql IMMUTABLE AS $f$ SELECT extract(epoch FROM d::timestamp)::bigint $f$;
CREATE FUNCTION pg_temp.arena_from_unixtime(n double precision) RETURNS timestamp(0)
LANGUAGE sql IMMUTABLE AS $f$ SELECT (to_timestamp(trunc(n)) AT TIME ZONE 'UTC')::timestamp(0) $f$;
CREATE FUNCTION pg_temp.arena_json_extract(doc text, path text[]) RETURNS text
LANGUAGE sql IMMUTABLE AS $f$ SELECT (doc::jsonb #> path)::text $f$;
CREATE FUNCTION pg_temp.arena_json_value(doc text, path text[]) RETURNS text
LANGUAGE sql IMMUTABLE AS $f$ SELECT doc::jsonb #>> path $f$;
CREATE FUNCTION pg_temp.arena_json_unquote(s text) RETURNS text
LANGUAGE sql IMMUTABLE AS $f$
  SELECT CASE WHEN s LIKE '"%"' AND length(s) >= 2 THEN (s::jsonb #>> '{}') ELSE s END
$f$;
CREATE FUNCTION pg_temp.arena_number(s text) RETURNS double precision
LANGUAGE sql IMMUTABLE AS $f$
  SELECT CASE WHEN s IS NULL THEN NULL ELSE COALESCE(
    substring(btrim(s) FROM '^[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?')::double precision,
    0) END
$f$;
"""
