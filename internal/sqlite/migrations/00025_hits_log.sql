-- The index sorts movies by their play counts (contract 12): a hit
-- batch's write concerns it, so it is logged like a changed title.

-- +goose Up
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
            OR old.country_json IS NOT new.country_json OR old.score IS NOT new.score);
    INSERT INTO search_log (kind, version, id) SELECT 2, movie_version, old.id FROM meta
        WHERE id = 1 AND old.id <> new.id;
END;
-- +goose StatementEnd
