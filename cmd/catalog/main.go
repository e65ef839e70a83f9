// Command catalog serves the clip and movie catalogs. Everything happens
// in internal/cli so that tests can run the whole program in-process.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"catalog/internal/cli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := cli.Run(ctx, os.Args[1:], os.Getenv, os.Stdin, os.Stdout, os.Stderr)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "catalog:", err)
		os.Exit(cli.ExitCode(err))
	}
}
