# The Varnish edge of deploy/compose.yaml: two catalog serve instances
# (catalog-1, catalog-2) behind one varnishd, with the caching and
# purging rules of the single-host edge (catalog-rules.vcl, mounted
# beside this file). Each service's requests go round-robin to the
# instances whose /api/health?ready answers 200: an instance whose search
# index is still building, or whose database is away, gets none.

vcl 4.1;

import directors;
import xkey;

probe ready {
    .url = "/api/health?ready";
    .interval = 5s;
    .timeout = 2s;
    .window = 3;
    .threshold = 2;
}

backend clips_1 { .host = "catalog-1"; .port = "8080"; .probe = ready; }
backend clips_2 { .host = "catalog-2"; .port = "8080"; .probe = ready; }
backend movies_1 { .host = "catalog-1"; .port = "8081"; .probe = ready; }
backend movies_2 { .host = "catalog-2"; .port = "8081"; .probe = ready; }

# Who may purge: the instances (their --purge-url points here).
acl purgers {
    "catalog-1";
    "catalog-2";
}

sub vcl_init {
    new clips = directors.round_robin();
    clips.add_backend(clips_1);
    clips.add_backend(clips_2);
    new movies = directors.round_robin();
    movies.add_backend(movies_1);
    movies.add_backend(movies_2);
}

sub vcl_recv {
    if (local.socket == "clips") {
        set req.backend_hint = clips.backend();
    } else {
        set req.backend_hint = movies.backend();
    }
}

include "./catalog-rules.vcl";
