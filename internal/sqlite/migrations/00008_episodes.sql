-- Play sources (contract 9): a movie's servers and episodes are stored
-- as their served JSON form (catalog.EpisodesJSON), read with the row.
-- play_kinds holds catalog.PlayKinds (1 = some embed link, 2 = some HLS
-- link) so that from=CODE (contract 6) filters on one integer. The old
-- single link becomes one server Main with one episode Full, the
-- import shorthand, written byte for byte as catalog.EpisodesJSON
-- writes it (json_quote escapes a URL the way it does: URLs hold no
-- control characters).

-- +goose Up
ALTER TABLE movies ADD COLUMN episodes TEXT NOT NULL DEFAULT '[]';
ALTER TABLE movies ADD COLUMN play_kinds INTEGER NOT NULL DEFAULT 0;
UPDATE movies SET
    episodes = '[{"server_name":"Main","server_data":[{"name":"Full","slug":"full","link_embed":'
        || json_quote(link_embed) || ',"link_m3u8":""}]}]',
    play_kinds = 1
WHERE link_embed <> '';
ALTER TABLE movies DROP COLUMN link_embed;

-- +goose Down
ALTER TABLE movies ADD COLUMN link_embed TEXT NOT NULL DEFAULT '';
UPDATE movies SET link_embed = coalesce((
    SELECT e.value ->> 'link_embed' FROM json_each(movies.episodes -> '$[0].server_data') e
    WHERE e.value ->> 'link_embed' <> '' ORDER BY e.key LIMIT 1), '')
WHERE episodes <> '[]';
ALTER TABLE movies DROP COLUMN play_kinds;
ALTER TABLE movies DROP COLUMN episodes;
