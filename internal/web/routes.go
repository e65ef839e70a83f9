package web

import "catalog/internal/httpx"

// Mount adds the public pages' routes to rt (contract 3.6).
func (p *Pages) Mount(rt *httpx.Router) {
	rt.HandleFunc("GET", "/{$}", p.Index)
	rt.HandleFunc("GET", "/clips/{id}", p.Clip)
}
