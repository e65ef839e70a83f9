package admin

import (
	"net/http"

	"catalog/internal/catalog"
	"catalog/internal/snapshot"
)

type snapshotPanelPage struct {
	chrome
	Notice    string
	Available bool // this process builds snapshots
	Status    snapshot.Status
}

// SnapshotPanel answers GET /admin/snapshot: the last build (time, size,
// movies, duration), the next one, the last error, and a button to
// rebuild now (contract 8).
func (s *Service) SnapshotPanel(w http.ResponseWriter, r *http.Request, sess catalog.Session) error {
	p := snapshotPanelPage{chrome: s.chrome(r, sess, "snapshot"), Available: s.Snapshots != nil}
	if p.Available {
		p.Status = s.Snapshots.Status()
	}
	if r.URL.Query().Get("rebuild") == "requested" {
		p.Notice = p.l.T("notice.rebuild_requested")
	}
	s.render(w, r, http.StatusOK, "snapshot", p)
	return nil
}

// RebuildSnapshot answers POST /admin/snapshot/rebuild: it asks the
// build loop to build now and returns to the panel at once; the build
// runs in the background like the hourly one.
func (s *Service) RebuildSnapshot(w http.ResponseWriter, r *http.Request, sess catalog.Session) error {
	if s.Snapshots != nil {
		s.Snapshots.Rebuild()
		s.Logger.Info("snapshot rebuild requested", "admin", sess.Username)
	}
	redirect(w, r, "/admin/snapshot?rebuild=requested")
	return nil
}
