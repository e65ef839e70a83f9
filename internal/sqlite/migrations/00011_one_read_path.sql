-- One read path: the in-process index (internal/search) answers every
-- list, its filters and its orders, so it must hear of every change to
-- what the lists filter and order on: the name, the last change time,
-- the type (the first category), the year and the play groups.

-- +goose Up
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

-- +goose Down
DROP TRIGGER movies_au_log;
-- +goose StatementBegin
CREATE TRIGGER movies_au_log AFTER UPDATE ON movies BEGIN
    UPDATE meta SET movie_version = movie_version + 1 WHERE id = 1;
    INSERT INTO search_log (kind, version, id) SELECT 2, movie_version, new.id FROM meta
        WHERE id = 1 AND (old.name_fold IS NOT new.name_fold OR old.id <> new.id);
    INSERT INTO search_log (kind, version, id) SELECT 2, movie_version, old.id FROM meta
        WHERE id = 1 AND old.id <> new.id;
END;
-- +goose StatementEnd
