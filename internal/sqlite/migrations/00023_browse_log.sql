-- The index filters and facets on a clip's actor and studio and on a
-- movie's lists and score (contract 12): a change to any of them
-- concerns it, so it is logged like a changed title.

-- +goose Up
DROP TRIGGER clips_au_log;
-- +goose StatementBegin
CREATE TRIGGER clips_au_log AFTER UPDATE ON clips BEGIN
    UPDATE meta SET clip_version = clip_version + 1 WHERE id = 1;
    INSERT INTO search_log (kind, version, id) SELECT 1, clip_version, new.id FROM meta
        WHERE id = 1 AND (old.title_fold IS NOT new.title_fold OR old.platform IS NOT new.platform OR old.id <> new.id
            OR old.actor IS NOT new.actor OR old.studio IS NOT new.studio);
    INSERT INTO search_log (kind, version, id) SELECT 1, clip_version, old.id FROM meta
        WHERE id = 1 AND old.id <> new.id;
END;
-- +goose StatementEnd

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

-- +goose Down
DROP TRIGGER movies_au_log;
-- +goose StatementBegin
CREATE TRIGGER movies_au_log AFTER UPDATE ON movies BEGIN
    UPDATE meta SET movie_version = movie_version + 1 WHERE id = 1;
    INSERT INTO search_log (kind, version, id) SELECT 2, movie_version, new.id FROM meta
        WHERE id = 1 AND (old.name_fold IS NOT new.name_fold OR old.id <> new.id
            OR old.updated_at IS NOT new.updated_at OR old.categories_json IS NOT new.categories_json
            OR old.year IS NOT new.year OR old.play_kinds IS NOT new.play_kinds);
    INSERT INTO search_log (kind, version, id) SELECT 2, movie_version, old.id FROM meta
        WHERE id = 1 AND old.id <> new.id;
END;
-- +goose StatementEnd

DROP TRIGGER clips_au_log;
-- +goose StatementBegin
CREATE TRIGGER clips_au_log AFTER UPDATE ON clips BEGIN
    UPDATE meta SET clip_version = clip_version + 1 WHERE id = 1;
    INSERT INTO search_log (kind, version, id) SELECT 1, clip_version, new.id FROM meta
        WHERE id = 1 AND (old.title_fold IS NOT new.title_fold OR old.platform IS NOT new.platform OR old.id <> new.id);
    INSERT INTO search_log (kind, version, id) SELECT 1, clip_version, old.id FROM meta
        WHERE id = 1 AND old.id <> new.id;
END;
-- +goose StatementEnd
