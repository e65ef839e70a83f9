-- Login throttling that holds under concurrency (contract 5): one row
-- per login attempt, counted before its password is checked, under the
-- username and the client address it came with, so that one table
-- answers the three limits (pair, address, username). Rows of an
-- earlier throttle were counts under "user:" and "addr:" keys; they
-- are at most 15 minutes of history and are dropped.

-- +goose Up
DROP TABLE login_failures;
CREATE TABLE login_failures (
    username TEXT    NOT NULL CHECK (length(CAST(username AS BLOB)) <= 64),
    addr     TEXT    NOT NULL,
    at       INTEGER NOT NULL -- Unix microseconds
);
-- (username, addr, at) serves the pair and username counts and unlock;
-- (addr, at) the address count; (at) the deletion of old rows.
CREATE INDEX login_failures_username ON login_failures (username, addr, at);
CREATE INDEX login_failures_addr ON login_failures (addr, at);
CREATE INDEX login_failures_at ON login_failures (at);

-- The last successful login of a username from an address, for the
-- exemption from the per-username limit.
CREATE TABLE login_successes (
    username TEXT    NOT NULL,
    addr     TEXT    NOT NULL,
    at       INTEGER NOT NULL, -- Unix microseconds
    PRIMARY KEY (username, addr)
) WITHOUT ROWID;
CREATE INDEX login_successes_at ON login_successes (at);

-- +goose Down
DROP TABLE login_successes;
DROP TABLE login_failures;
CREATE TABLE login_failures (
    key TEXT    NOT NULL,
    at  INTEGER NOT NULL
);
CREATE INDEX login_failures_key_at ON login_failures (key, at);
