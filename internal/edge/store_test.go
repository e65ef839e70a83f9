package edge_test

import (
	"reflect"
	"testing"

	"catalog/internal/catalog"
)

// Every method of catalog.Store is either a write of clips or movies,
// which the announcing store overrides (TestAnnouncingStore checks each
// one purges), or something that changes no public read. A method added
// to the interface fails here until it is put in one of the two lists
// (and, if it writes clips or movies, given its override in store.go).
func TestEveryContentWriteIsAnnounced(t *testing.T) {
	announced := map[string]bool{"CreateClip": true, "UpdateClip": true, "DeleteClip": true, "ImportClips": true,
		"UpsertMovies": true, "UpdateMovie": true, "DeleteMovie": true, "CollectMovies": true}
	other := map[string]bool{
		// reads
		"GetClip": true, "ExportClips": true, "CountClips": true, "GetMovie": true, "EachMovie": true,
		"ExportMovies": true, "CountMovies": true, "MovieIDByKey": true, "DataVersion": true, "Ping": true, "Close": true,
		"VodTypes": true,
		// the search log: reads, and pruning rows every instance has read
		"KindVersion": true, "SearchDocs": true, "SearchChanges": true, "ClipsByID": true, "MoviesByID": true, "VodsByID": true,
		"PruneSearchLog": true,
		"Identity":       true, // which database an index file belongs to
		// administrators, sessions, logins and tokens: never in a cached answer
		"CreateAdmin": true, "AdminByUsername": true, "CreateSession": true, "SessionByTokenHash": true, "TouchSession": true,
		"DeleteSession": true, "DeleteExpiredSessions": true, "ReserveLogin": true, "LoginSucceeded": true, "UnlockLogin": true,
		"CreateToken": true, "ListTokens": true, "TokenByHash": true, "TouchToken": true, "RevokeToken": true,
		"ListAdmins": true, "DeleteAdmin": true, "SetAdminPassword": true, "SetAdminLanguage": true,
		// sources and their runs: never in a cached answer
		"AddSource": true, "ListSources": true, "SourceByName": true, "RemoveSource": true, "RecordRun": true,
		"SetSourceSettings": true,
		// bindings and the records kept with a source, not shown (contract
		// 10): publishing, moving and hiding go through CollectMovies,
		// UpdateMovie and DeleteMovie, which announce
		"SourceTypes": true, "PutSourceTypes": true, "KeepRecords": true, "KeptRecords": true, "DropKept": true,
		"KeptVodIDs": true, "CollectedRecords": true, "ForgetRecords": true, "SetSourceRules": true,
		// hits: counted fields that may lag (contract 12); a purge per
		// batch would empty the edge every few seconds
		"AddHits": true,
		// the link prober's queue and its findings: SaveLinkChecks changes
		// served episodes, and the prober announces the movies whose status
		// or order changed itself (it alone knows which; linkcheck.Options.Changed)
		"ClaimLinkChecks": true, "SaveLinkChecks": true, "ReportLink": true, "DeadLinks": true, "DeadLinkCounts": true,
		// the poster mirror's queue and copies: FinishPosterJobs and
		// ResetPosterMirrors change served posters, and the mirror
		// announces the movies itself (posters.Options.Changed); a reset
		// runs at start, before anything is cached
		"ClaimPosterJobs": true, "HasPosterImage": true, "SavePosterImage": true, "FinishPosterJobs": true,
		"RetryPosterJob": true, "PosterImage": true, "ResetPosterMirrors": true,
	}
	store := reflect.TypeOf((*catalog.Store)(nil)).Elem()
	for i := range store.NumMethod() {
		if name := store.Method(i).Name; !announced[name] && !other[name] {
			t.Errorf("catalog.Store.%s is new: if it changes clips or movies, override it in internal/edge/store.go "+
				"and list it as announced here; else list it as other", name)
		}
	}
}
