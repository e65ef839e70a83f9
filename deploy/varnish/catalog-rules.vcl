# The caching and purging rules of the catalog's Varnish edge
# (contract 7), included by catalog.vcl (one instance on this host) and
# by deploy/compose/varnish.vcl (two instances). The including file
# imports xkey, declares the backends, the acl "purgers" (who may send
# PURGE) and a vcl_recv that sets req.backend_hint by local.socket
# ("clips" or any other socket: movies); Varnish runs the vcl_recv
# definitions in order, so the backend is chosen before these rules.

sub vcl_recv {
    if (req.method == "PURGE") {
        if (client.ip !~ purgers) {
            return (synth(403, "Forbidden"));
        }
        if (!req.http.xkey-purge) {
            set req.http.xkey-purge = req.http.xkey;
        }
        if (!req.http.xkey-purge) {
            return (synth(400, "xkey-purge header required"));
        }
        # A hard purge: stale-while-revalidate must not serve the old
        # title for another ten minutes after an edit.
        set req.http.n-gone = xkey.purge(req.http.xkey-purge);
        return (synth(200, "Purged " + req.http.n-gone));
    }

    if (req.method != "GET" && req.method != "HEAD") {
        # Writes, the login form, CORS preflights: straight through.
        return (pass);
    }
    if (req.url ~ "^/admin" || req.http.Authorization) {
        return (pass);
    }
    # The public reads (the JSON APIs and the MacCMS paths) do not depend
    # on the admin's session cookie, so the cookie must not make every
    # admin's reads a miss. The HTML pages keep it (they are no-cache
    # anyway).
    if (req.url ~ "^/api[/.]") {
        unset req.http.Cookie;
    }
    # A Range on the plain form of the snapshot goes to the service, which
    # answers it from its full-flush index at a constant cost; Varnish would
    # gunzip its gzip copy from the start (seconds for a large catalog).
    # Ranges on the gzip form are served from the cache.
    if (req.url ~ "^/api/movies/snapshot" && req.http.Range && req.http.Accept-Encoding !~ "gzip") {
        return (pass);
    }
    # Anything else that comes with a cookie may depend on it.
    if (req.http.Cookie) {
        return (pass);
    }
    return (hash);
}

sub vcl_backend_response {
    # Errors are never kept, whatever they say (a 404 must not stick).
    if (beresp.status >= 400) {
        set beresp.ttl = 0s;
        set beresp.uncacheable = true;
        return (deliver);
    }
    if (beresp.http.Cache-Control ~ "(no-store|private|no-cache)" || beresp.http.Set-Cookie) {
        set beresp.uncacheable = true;
        set beresp.ttl = 120s; # remembered as "do not cache" (hit-for-miss)
        return (deliver);
    }
    # Varnish negotiates the encoding itself (it stores gzip and gunzips
    # for plain clients), so Vary: Accept-Encoding must not split the
    # cache into a gzip and a plain copy; vcl_deliver puts it back for
    # caches further down.
    if (beresp.http.Vary == "Accept-Encoding") {
        unset beresp.http.Vary;
        set beresp.http.X-Catalog-Vary = "Accept-Encoding";
    }
    # The surrogate keys, for xkey.purge.
    if (beresp.http.Surrogate-Key) {
        set beresp.http.xkey = beresp.http.Surrogate-Key;
    }
    return (deliver);
}

sub vcl_deliver {
    if (resp.http.X-Catalog-Vary) {
        set resp.http.Vary = resp.http.X-Catalog-Vary;
        unset resp.http.X-Catalog-Vary;
    }
    unset resp.http.xkey;
    if (obj.hits > 0) {
        set resp.http.X-Cache = "HIT";
    } else {
        set resp.http.X-Cache = "MISS";
    }
}
