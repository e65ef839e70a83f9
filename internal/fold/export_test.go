package fold

// Slow is the fold without its ASCII fast path, for the fuzz target to
// check that the two agree.
var Slow = slow

// KeyAlphabet is keyAlphabet, for the fuzz target.
var KeyAlphabet = keyAlphabet
