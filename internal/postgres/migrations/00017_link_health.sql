-- Link health (contract 13), as in internal/sqlite: movies.link_health
-- is what the prober found for each server (written only by the
-- prober), link_checks its queue (due in Unix seconds; 0: never checked
-- or the episodes changed; -1: reported), dead_links the dead servers
-- for the console and the metrics.

-- +goose Up
ALTER TABLE movies ADD COLUMN link_health text NOT NULL DEFAULT '';
CREATE TABLE link_checks (
    movie_id bigint PRIMARY KEY,
    due      bigint NOT NULL DEFAULT 0
);
CREATE INDEX link_checks_due ON link_checks (due);
INSERT INTO link_checks (movie_id, due) SELECT id, 0 FROM movies;
CREATE TABLE dead_links (
    movie_id bigint NOT NULL,
    server   text   NOT NULL,
    source   text   NOT NULL,
    PRIMARY KEY (movie_id, server)
);
CREATE INDEX dead_links_source ON dead_links (source, movie_id);

-- One statement-level trigger per operation, as for the counts: a new
-- movie is due at once, so is one whose episodes changed, and a
-- deleted one leaves the queue.
-- +goose StatementBegin
CREATE FUNCTION links_queued() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO link_checks (movie_id, due) SELECT id, 0 FROM new_rows ORDER BY id
            ON CONFLICT (movie_id) DO UPDATE SET due = 0;
    ELSIF TG_OP = 'DELETE' THEN
        DELETE FROM link_checks WHERE movie_id IN (SELECT id FROM old_rows);
        DELETE FROM dead_links WHERE movie_id IN (SELECT id FROM old_rows);
    ELSE
        INSERT INTO link_checks (movie_id, due)
            SELECT n.id, 0 FROM new_rows n LEFT JOIN old_rows o ON o.id = n.id
            WHERE o.id IS NULL OR n.episodes IS DISTINCT FROM o.episodes ORDER BY n.id
            ON CONFLICT (movie_id) DO UPDATE SET due = 0;
    END IF;
    RETURN NULL;
END;
$$;
-- +goose StatementEnd

CREATE TRIGGER movies_links_insert AFTER INSERT ON movies
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION links_queued();
CREATE TRIGGER movies_links_update AFTER UPDATE ON movies
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION links_queued();
CREATE TRIGGER movies_links_delete AFTER DELETE ON movies
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION links_queued();

-- +goose Down
DROP TRIGGER movies_links_delete ON movies;
DROP TRIGGER movies_links_update ON movies;
DROP TRIGGER movies_links_insert ON movies;
DROP FUNCTION links_queued();
DROP TABLE dead_links;
DROP TABLE link_checks;
ALTER TABLE movies DROP COLUMN link_health;
