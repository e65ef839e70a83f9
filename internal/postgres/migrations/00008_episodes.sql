-- Play sources (contract 9): a movie's servers and episodes are stored
-- as their served JSON form (catalog.EpisodesJSON) in a text column, so
-- that the bytes read are the bytes written. play_kinds holds
-- catalog.PlayKinds (1 = some embed link, 2 = some HLS link) so that
-- from=CODE (contract 6) filters on one integer. The old single link
-- becomes one server Main with one episode Full, the import shorthand,
-- written byte for byte as catalog.EpisodesJSON writes it (to_json
-- escapes a URL the way it does: URLs hold no control characters).

-- +goose Up
ALTER TABLE movies ADD COLUMN episodes text NOT NULL DEFAULT '[]';
ALTER TABLE movies ADD COLUMN play_kinds smallint NOT NULL DEFAULT 0;
UPDATE movies SET
    episodes = '[{"server_name":"Main","server_data":[{"name":"Full","slug":"full","link_embed":'
        || to_json(link_embed)::text || ',"link_m3u8":""}]}]',
    play_kinds = 1
WHERE link_embed <> '';
ALTER TABLE movies DROP COLUMN link_embed;

-- +goose Down
ALTER TABLE movies ADD COLUMN link_embed text NOT NULL DEFAULT '';
UPDATE movies SET link_embed = coalesce((
    SELECT e ->> 'link_embed' FROM jsonb_array_elements(movies.episodes::jsonb -> 0 -> 'server_data') WITH ORDINALITY AS x (e, n)
    WHERE e ->> 'link_embed' <> '' ORDER BY n LIMIT 1), '')
WHERE episodes <> '[]';
ALTER TABLE movies DROP COLUMN play_kinds;
ALTER TABLE movies DROP COLUMN episodes;
