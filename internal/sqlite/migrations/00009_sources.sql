-- Collecting from MacCMS sources (contract 10): the sources, the record
-- of every run, and which movie each source's vod_id became. The movies
-- table keeps its columns; a collected movie is a movie like any other.

-- +goose Up

CREATE TABLE sources (
    name          TEXT    PRIMARY KEY,
    url           TEXT    NOT NULL,
    every_seconds INTEGER NOT NULL, -- 0: only on request
    hours         INTEGER NOT NULL, -- 0: every run reads everything
    created_at    INTEGER NOT NULL  -- unix seconds, UTC
) WITHOUT ROWID;

-- Runs outlive their source (an address collected without a name has
-- none), so that what a run did stays on record.
CREATE TABLE source_runs (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    source      TEXT    NOT NULL,
    started_at  INTEGER NOT NULL,
    finished_at INTEGER NOT NULL,
    pages       INTEGER NOT NULL,
    read        INTEGER NOT NULL,
    written     INTEGER NOT NULL,
    rejected    INTEGER NOT NULL,
    error       TEXT    NOT NULL
);
CREATE INDEX source_runs_source ON source_runs (source, id);

-- joined = 1: the record joined a movie that did not come from this
-- source, and only its servers ("SOURCE: CODE") are this source's. A
-- deleted movie forgets its records, so a later run adds it again.
CREATE TABLE source_movies (
    source   TEXT    NOT NULL,
    vod_id   INTEGER NOT NULL,
    movie_id INTEGER NOT NULL REFERENCES movies (id) ON DELETE CASCADE,
    joined   INTEGER NOT NULL,
    PRIMARY KEY (source, vod_id)
) WITHOUT ROWID;
CREATE INDEX source_movies_movie ON source_movies (movie_id);

-- A collected record joins the movie of the same name and year.
CREATE INDEX movies_name_year ON movies (name, year);

-- +goose Down
DROP INDEX movies_name_year;
DROP TABLE source_movies;
DROP TABLE source_runs;
DROP TABLE sources;
