package apidoc

// Limits of contract 2 that the documents state but that no constant on
// this branch enforces yet (the input-limits work adds them). They live
// here, once, for both services' documents; when the enforcing
// constants land, the services' Vars name those instead and these go.
const (
	PendingMaxSearchRunes = 256      // q, wd: characters after trimming
	PendingMaxSearchWords = 16       // q, wd: distinct words
	PendingMaxHeaderBytes = 64 << 10 // request line and headers (431)
)
