package catalog

// ParseStoredEpisodes is parseStoredEpisodes for the external tests.
var ParseStoredEpisodes = parseStoredEpisodes
