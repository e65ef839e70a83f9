-- Category bindings and records deleted at the source (contract 10):
-- each source's types (remote type_id) bound to a local category or to
-- skip; the records of an unbound type, and the movies hidden because
-- their source no longer lists them, kept with their source and not
-- shown; which type each collected record had; what a full run does
-- with a record its source no longer lists (keep, hide, delete); and the
-- operator's synonym rules, one "LOCAL=REMOTE" a line.

-- +goose Up
ALTER TABLE sources ADD COLUMN gone text NOT NULL DEFAULT 'keep';
ALTER TABLE sources ADD COLUMN synonyms text NOT NULL DEFAULT '';
ALTER TABLE source_movies ADD COLUMN type_id bigint NOT NULL DEFAULT 0;
ALTER TABLE source_runs ADD COLUMN unbound integer NOT NULL DEFAULT 0;
CREATE INDEX source_movies_type ON source_movies (source, type_id);

-- category '' and skip false: not bound. by_hand: bound by an operator, so
-- auto-binding leaves it.
CREATE TABLE source_types (
    source   text    NOT NULL,
    type_id  bigint NOT NULL,
    name     text    NOT NULL,
    category text    NOT NULL,
    skip     boolean NOT NULL,
    by_hand  boolean NOT NULL,
    PRIMARY KEY (source, type_id)
);

-- gone false: a record of an unbound type, published when its type is
-- bound; gone true: a movie hidden because its source stopped listing it.
-- record is the mapped movie as JSON.
CREATE TABLE source_kept (
    source       text    NOT NULL,
    vod_id       bigint NOT NULL,
    type_id      bigint NOT NULL,
    gone         boolean NOT NULL,
    record       text    NOT NULL,
    content_hash text    NOT NULL,
    PRIMARY KEY (source, vod_id)
);
CREATE INDEX source_kept_type ON source_kept (source, type_id);

-- +goose Down
DROP TABLE source_kept;
DROP TABLE source_types;
DROP INDEX source_movies_type;
ALTER TABLE source_runs DROP COLUMN unbound;
ALTER TABLE source_movies DROP COLUMN type_id;
ALTER TABLE sources DROP COLUMN synonyms;
ALTER TABLE sources DROP COLUMN gone;
