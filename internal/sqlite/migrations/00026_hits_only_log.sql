-- A hit batch changes only the movies' play counts: its log rows say
-- so (hits_only), and the index then reads only the counts of those
-- movies and updates its hits orders in place, instead of reading and
-- indexing whole documents (SearchUpdate.Hits). Any other change to a
-- logged column is a whole change (hits_only 0), as before.

-- +goose Up
ALTER TABLE search_log ADD COLUMN hits_only INTEGER NOT NULL DEFAULT 0;
DROP TRIGGER movies_au_log;
-- +goose StatementBegin
CREATE TRIGGER movies_au_log AFTER UPDATE ON movies BEGIN
    UPDATE meta SET movie_version = movie_version + 1 WHERE id = 1;
    INSERT INTO search_log (kind, version, id, hits_only) SELECT 2, movie_version, new.id, whole = 0 FROM meta,
        (SELECT (old.name_fold IS NOT new.name_fold OR old.id <> new.id
            OR old.updated_at IS NOT new.updated_at OR old.categories_json IS NOT new.categories_json
            OR old.year IS NOT new.year OR old.play_kinds IS NOT new.play_kinds
            OR old.actor_json IS NOT new.actor_json OR old.director_json IS NOT new.director_json
            OR old.studio_json IS NOT new.studio_json OR old.genre_json IS NOT new.genre_json
            OR old.country_json IS NOT new.country_json OR old.score IS NOT new.score) AS whole)
        WHERE id = 1 AND (whole OR old.hits IS NOT new.hits OR old.hits_day IS NOT new.hits_day
            OR old.hits_week IS NOT new.hits_week OR old.hits_month IS NOT new.hits_month OR old.hits_on IS NOT new.hits_on);
    INSERT INTO search_log (kind, version, id) SELECT 2, movie_version, old.id FROM meta
        WHERE id = 1 AND old.id <> new.id;
END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER movies_au_log;
-- +goose StatementBegin
CREATE TRIGGER movies_au_log AFTER UPDATE ON movies BEGIN
    UPDATE meta SET movie_version = movie_version + 1 WHERE id = 1;
    INSERT INTO search_log (kind, version, id) SELECT 2, movie_version, new.id FROM meta
        WHERE id = 1 AND (old.name_fold IS NOT new.name_fold OR old.id <> new.id
            OR old.updated_at IS NOT new.updated_at OR old.categories_json IS NOT new.categories_json
            OR old.year IS NOT new.year OR old.play_kinds IS NOT new.play_kinds
            OR old.actor_json IS NOT new.actor_json OR old.director_json IS NOT new.director_json
            OR old.studio_json IS NOT new.studio_json OR old.genre_json IS NOT new.genre_json
            OR old.country_json IS NOT new.country_json OR old.score IS NOT new.score
            OR old.hits IS NOT new.hits OR old.hits_day IS NOT new.hits_day OR old.hits_week IS NOT new.hits_week
            OR old.hits_month IS NOT new.hits_month OR old.hits_on IS NOT new.hits_on);
    INSERT INTO search_log (kind, version, id) SELECT 2, movie_version, old.id FROM meta
        WHERE id = 1 AND old.id <> new.id;
END;
-- +goose StatementEnd
ALTER TABLE search_log DROP COLUMN hits_only;
