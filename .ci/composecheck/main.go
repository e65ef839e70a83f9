// Command composecheck loads compose files with compose-go, the
// Compose Specification's reference loader (the one docker compose
// uses): schema validation, interpolation, extension merges and
// service references. It prints each file's services and fails on the
// first file that does not load. Usage (from .ci/run):
//
//	go run ./.ci/composecheck deploy/compose.yaml
//
// It is a module of its own, so that the service's module does not
// depend on compose-go.
package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/compose-spec/compose-go/v2/cli"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: composecheck FILE...")
		os.Exit(2)
	}
	for _, file := range os.Args[1:] {
		if err := check(file); err != nil {
			fmt.Fprintf(os.Stderr, "composecheck: %s: %v\n", file, err)
			os.Exit(1)
		}
	}
}

func check(file string) error {
	abs, err := filepath.Abs(file)
	if err != nil {
		return err
	}
	opts, err := cli.NewProjectOptions([]string{abs},
		cli.WithWorkingDirectory(filepath.Dir(abs)),
		cli.WithOsEnv,
		cli.WithConsistency(true),
		cli.WithResolvedPaths(true),
	)
	if err != nil {
		return err
	}
	project, err := opts.LoadProject(context.Background())
	if err != nil {
		return err
	}
	names := project.ServiceNames()
	slices.Sort(names)
	fmt.Printf("%s: project %s, services %v\n", file, project.Name, names)
	return nil
}
