// Command profserve is `catalog` with net/http/pprof on a separate
// loopback address, for profiling a server under the load script:
//
//	go run ./bench/profserve -pprof 127.0.0.1:6060 serve --db ...
//	go tool pprof -seconds 5 http://127.0.0.1:6060/debug/pprof/profile
//
// The catalog binary itself never exposes pprof.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"net/http"
	_ "net/http/pprof" // registers /debug/pprof on http.DefaultServeMux
	"os"
	"os/signal"
	"syscall"

	"catalog/internal/cli"
)

func main() {
	addr := flag.String("pprof", "127.0.0.1:6060", "pprof listen address (keep it on loopback)")
	flag.Parse()
	go func() { log.Println(http.ListenAndServe(*addr, nil)) }()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := cli.Run(ctx, flag.Args(), os.Getenv, os.Stdin, os.Stdout, os.Stderr)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "catalog:", err)
		os.Exit(cli.ExitCode(err))
	}
}
