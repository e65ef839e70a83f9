package testenv

import "syscall"

// CPUTime is the CPU time the process has used, user and system, in
// nanoseconds: benchmarks report it per operation (cpu-ns/op), which a
// machine shared with other work disturbs less than the wall clock.
func CPUTime() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
