package fold

// Slow is the fold without its ASCII fast path, for the fuzz target to
// check that the two agree.
var Slow = slow

// KeyAlphabet reports whether r is a letter of FullKey's or
// InitialsKey's alphabet, which String never outputs (the fuzz target
// checks).
func KeyAlphabet(r rune) bool { return 'A' <= r && r <= 'Z' || 0x410 <= r && r <= 0x429 }
