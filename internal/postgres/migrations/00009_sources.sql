-- Collecting from MacCMS sources (contract 10), as in internal/sqlite:
-- the sources, the record of every run, and which movie each source's
-- vod_id became. The movies table keeps its columns.

-- +goose Up

CREATE TABLE sources (
    name          text        PRIMARY KEY,
    url           text        NOT NULL,
    every_seconds bigint      NOT NULL, -- 0: only on request
    hours         integer     NOT NULL, -- 0: every run reads everything
    created_at    timestamptz NOT NULL
);

-- Runs outlive their source (an address collected without a name has
-- none), so that what a run did stays on record.
CREATE TABLE source_runs (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    source      text        NOT NULL,
    started_at  timestamptz NOT NULL,
    finished_at timestamptz NOT NULL,
    pages       integer     NOT NULL,
    read        integer     NOT NULL,
    written     integer     NOT NULL,
    rejected    integer     NOT NULL,
    error       text        NOT NULL
);
CREATE INDEX source_runs_source ON source_runs (source, id);

-- joined: the record joined a movie that did not come from this source,
-- and only its servers ("SOURCE: CODE") are this source's. A deleted
-- movie forgets its records, so a later run adds it again.
CREATE TABLE source_movies (
    source   text    NOT NULL,
    vod_id   bigint  NOT NULL,
    movie_id bigint  NOT NULL REFERENCES movies (id) ON DELETE CASCADE,
    joined   boolean NOT NULL,
    PRIMARY KEY (source, vod_id)
);
CREATE INDEX source_movies_movie ON source_movies (movie_id);

-- A collected record joins the movie of the same name and year.
CREATE INDEX movies_name_year ON movies (name, year);

-- +goose Down
DROP INDEX movies_name_year;
DROP TABLE source_movies;
DROP TABLE source_runs;
DROP TABLE sources;
