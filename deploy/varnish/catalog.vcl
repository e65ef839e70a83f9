# Varnish edge for the catalog (contract 7), one catalog serve on this
# host. Needs the xkey vmod (Debian: apt-get install varnish
# varnish-modules) and catalog-rules.vcl beside this file: the caching
# and purging rules, which the compose edge (deploy/compose/varnish.vcl,
# two instances) includes too. Install both into /etc/varnish.
#
# One varnishd fronts both services, one listening socket each; the
# socket's name picks the backend:
#
#   varnishd -f /etc/varnish/catalog.vcl -s malloc,1g \
#            -a clips=:80 -a movies=:8000
#
# Start catalog serve with --purge-url http://VARNISH-HOST:80/ (any of
# the sockets, any path): every committed write then sends
#   PURGE /   xkey-purge: movies movie-17
# and the objects tagged with any of those keys are dropped at once, so
# the next read is fresh although the movie service allows a day of
# caching. Responses name their keys in Surrogate-Key (see
# internal/edge for which object carries which key).
#
# Caching follows what the service says: Cache-Control max-age (and
# stale-while-revalidate as grace) on successes; no-store, private and
# every error status are never stored. Varnish keeps one gzip copy of a
# response and gunzips it for clients that do not accept gzip.

vcl 4.1;

import xkey;

# Edit the addresses to where catalog serve listens (--clips-addr,
# --movies-addr).
backend clips {
    .host = "127.0.0.1";
    .port = "8080";
}

backend movies {
    .host = "127.0.0.1";
    .port = "8081";
}

# Who may purge: the hosts running catalog serve (and import/seed).
acl purgers {
    "127.0.0.1";
    "::1";
}

sub vcl_recv {
    if (local.socket == "clips") {
        set req.backend_hint = clips;
    } else {
        set req.backend_hint = movies;
    }
}

include "./catalog-rules.vcl";
