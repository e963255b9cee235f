"""``wsgi.delay``: upstream's v2 WSGI API, plus due times (see
doc/source/user.rst, "Waiting messages under the client's control")."""
