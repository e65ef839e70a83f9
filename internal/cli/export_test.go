package cli

// SnapshotLockKey lets the tests hold the snapshot build lock the way
// another instance would.
const SnapshotLockKey = snapshotLockKey
