// Command ceiling is the load test's yardstick: a bare net/http server
// that writes one fixed ~6 KB JSON body, measured in the same run as the
// catalog so that results are ratios, not machine-dependent numbers.
package main

import (
	"flag"
	"fmt"
	"log"
	"net/http"
	"strconv"
	"strings"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8090", "listen address")
	flag.Parse()

	var b strings.Builder
	b.WriteString(`{"meta":{"page":1,"limit":20,"total":1000000},"data":[`)
	for i := range 20 {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":%d,"title":"Sunset over the bay number %d","iframe_url":"https://www.youtube.com/embed/dQw4w9WgXcQ","cover_url":"https://i.ytimg.com/vi/dQw4w9WgXcQ/hqdefault.jpg","actor":"Sample Actor","studio":"Sample Studio","platform":"JAV","notes":"","created_at":"2026-11-21T13:45:07Z"}`, 1000000-i, i)
	}
	b.WriteString(`]}`)
	body := []byte(b.String())
	size := strconv.Itoa(len(body))

	http.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.Header().Set("Content-Length", size)
		w.Write(body)
	})
	log.Printf("ceiling: %d-byte body on %s", len(body), *addr)
	log.Fatal(http.ListenAndServe(*addr, nil))
}
