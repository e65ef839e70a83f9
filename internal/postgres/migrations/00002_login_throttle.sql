-- Login throttling that holds under concurrency (contract 5): one row
-- per login attempt, counted before its password is checked, under the
-- username and the client address it came with, so that one table
-- answers the three limits (pair, address, username). Rows of an
-- earlier throttle were counts under "user:" and "addr:" keys; they
-- are at most 15 minutes of history and are dropped. The username is
-- bounded so that no key comes near the b-tree entry limit (~2.7 KB).

-- +goose Up
DROP TABLE login_failures;
CREATE TABLE login_failures (
    id       bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    username text        NOT NULL CHECK (octet_length(username) <= 64),
    addr     text        NOT NULL,
    at       timestamptz NOT NULL
);
-- (username, addr, at) serves the pair and username counts and unlock;
-- (addr, at) the address count; (at) the deletion of old rows.
CREATE INDEX login_failures_username ON login_failures (username, addr, at);
CREATE INDEX login_failures_addr ON login_failures (addr, at);
CREATE INDEX login_failures_at ON login_failures (at);

-- The last successful login of a username from an address, for the
-- exemption from the per-username limit.
CREATE TABLE login_successes (
    username text        NOT NULL,
    addr     text        NOT NULL,
    at       timestamptz NOT NULL,
    PRIMARY KEY (username, addr)
);
CREATE INDEX login_successes_at ON login_successes (at);

-- +goose Down
DROP TABLE login_successes;
DROP TABLE login_failures;
CREATE TABLE login_failures (
    id  bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    key text NOT NULL,
    at  timestamptz NOT NULL
);
CREATE INDEX login_failures_key_at ON login_failures (key, at);
