// Package docstest holds the test that keeps the documentation true:
// it runs the shell blocks of README.md and docs/*.md against a built
// catalog and a running serve, checks their links and that the
// development guide's layout names every package. See
// docs/development.md, "The docs test".
package docstest
