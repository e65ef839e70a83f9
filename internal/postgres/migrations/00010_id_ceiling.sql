-- +goose Up
-- Record ids stop at 2^32-1 (catalog.MaxID), the largest id the search
-- index holds: past it a sequence answers "no record ids left" (2200H)
-- instead of handing out an id no list could show. A catalog whose ids
-- are already past it keeps its sequence as it is; `catalog migrate`
-- reports those rows.
-- +goose StatementBegin
DO $$
BEGIN
    IF (SELECT last_value FROM clips_id_seq) <= 4294967295 THEN
        ALTER SEQUENCE clips_id_seq MAXVALUE 4294967295;
    END IF;
    IF (SELECT last_value FROM movies_id_seq) <= 4294967295 THEN
        ALTER SEQUENCE movies_id_seq MAXVALUE 4294967295;
    END IF;
END
$$;
-- +goose StatementEnd

-- +goose Down
ALTER SEQUENCE clips_id_seq NO MAXVALUE;
ALTER SEQUENCE movies_id_seq NO MAXVALUE;
