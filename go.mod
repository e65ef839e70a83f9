module catalog

go 1.26.8

require (
	github.com/klauspost/compress v1.20.3
	golang.org/x/text v0.43.0
)
