package collect_test

import (
	"context"
	"database/sql"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"
	_ "modernc.org/sqlite" // the "sqlite" driver, for the test's trigger

	"catalog/internal/catalog"
	"catalog/internal/collect"
	"catalog/internal/testdb"
)

// heldStore is a real store whose first write closes started and then
// waits until release is closed, so that the reader gets ahead of the
// writer; it keeps the number of records of every write.
type heldStore struct {
	catalog.Store
	started chan struct{}
	release chan struct{}
	mu      sync.Mutex
	writes  []int
}

func (h *heldStore) CollectMovies(ctx context.Context, source string, page []catalog.CollectedMovie) error {
	h.mu.Lock()
	first := len(h.writes) == 0
	h.writes = append(h.writes, len(page))
	h.mu.Unlock()
	if first {
		close(h.started)
		<-h.release
	}
	return h.Store.CollectMovies(ctx, source, page)
}

// aheadSource serves pages of 100 records, record n named "Movie n"
// (record bad with an empty name, which validation rejects), and lets
// the store's first write go once the reader asks for page 5: pages 2
// to 4 then wait for the writer. Page 2 is answered once the first
// write started, so that the first write holds page 1 alone.
func aheadSource(t *testing.T, st *heldStore, pages, bad int) *httptest.Server {
	var once sync.Once
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		pg, _ := strconv.Atoi(r.URL.Query().Get("pg"))
		switch pg {
		case 2:
			<-st.started
		case 5:
			once.Do(func() { close(st.release) })
		}
		body := vodPage(pg, pages, (pg-1)*100+1, 100)
		body = strings.Replace(body, fmt.Sprintf(`"vod_name":"Movie %d"`, bad), `"vod_name":""`, 1)
		fmt.Fprint(w, body)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// Pages read while a write runs are written together, in one write; a
// record that fails validation in such a batch is reported by its
// number in the run and the others are written.
func TestPagesReadAheadAreWrittenTogether(t *testing.T) {
	st := &heldStore{Store: testdb.Open(t), started: make(chan struct{}), release: make(chan struct{})}
	srv := aheadSource(t, st, 8, 250)
	run, sum, err := collect.Run(context.Background(), st, collect.Options{Source: "ahead", URL: srv.URL + "/vod", Limits: shortLimits, Fetch: local})
	if err != nil {
		t.Fatal(err)
	}
	if run.Pages != 8 || run.Read != 800 || run.Written != 799 || run.Rejected != 1 {
		t.Fatalf("run: got %+v, want 8 pages, 800 read, 799 written, 1 rejected", run)
	}
	if len(sum.Rejects) != 1 || sum.Rejects[0].Line != 250 || !strings.Contains(sum.Rejects[0].Message, `vod_id "250"`) {
		t.Fatalf("rejects: got %+v, want record 250", sum.Rejects)
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.writes[0] != 100 || slices.Max(st.writes) < 299 {
		t.Errorf("records per write: got %v, want 100 and then one write of at least pages 2 to 4", st.writes)
	}
	if n, err := st.CountMovies(context.Background()); err != nil || n != 799 {
		t.Errorf("movies: got %d (%v), want 799", n, err)
	}
}

// When the database refuses a batch, its pages are written one by one:
// those before the failing page stay written, nothing of that page is,
// and the run stops with that page's number.
func TestFailedBatchKeepsTheEarlierPages(t *testing.T) {
	db := testdb.New(t)
	st := &heldStore{Store: db.Open(t), started: make(chan struct{}), release: make(chan struct{})}
	refuse(t, db, "Movie 350") // on page 4
	srv := aheadSource(t, st, 8, 0)
	run, _, err := collect.Run(context.Background(), st, collect.Options{Source: "ahead", URL: srv.URL + "/vod", Limits: shortLimits, Fetch: local})
	if err == nil || !strings.HasPrefix(err.Error(), "page 4: writing: ") {
		t.Fatalf("run error: got %v, want page 4's write", err)
	}
	if run.Pages != 3 || run.Written != 300 {
		t.Errorf("run: got %+v, want 3 pages, 300 written", run)
	}
	if n, err := st.CountMovies(context.Background()); err != nil || n != 300 {
		t.Errorf("movies: got %d (%v), want 300 (pages 1 to 3)", n, err)
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	if slices.Max(st.writes) < 299 {
		t.Errorf("records per write: got %v, want one batch of pages 2 to 4 before the page by page writes", st.writes)
	}
}

// refuse makes the database refuse to store a movie named name, with a
// trigger: a failure of the database itself, not of validation.
func refuse(t *testing.T, db testdb.DB, name string) {
	t.Helper()
	ctx := context.Background()
	if testdb.Engine() == testdb.Postgres {
		conn, err := pgx.Connect(ctx, db.DSN())
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close(ctx)
		_, err = conn.Exec(ctx, `CREATE FUNCTION refuse_movie() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN RAISE EXCEPTION 'refused by the test'; END $$;
CREATE TRIGGER refuse_movie BEFORE INSERT ON movies FOR EACH ROW WHEN (NEW.name = '`+name+`') EXECUTE FUNCTION refuse_movie()`)
		if err != nil {
			t.Fatal(err)
		}
		return
	}
	conn, err := sql.Open("sqlite", db.DSN())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `CREATE TRIGGER refuse_movie BEFORE INSERT ON movies
WHEN NEW.name = '`+name+`' BEGIN SELECT RAISE(ABORT, 'refused by the test'); END`); err != nil {
		t.Fatal(err)
	}
}
