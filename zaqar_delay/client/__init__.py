"""Client side of ``wsgi.delay``: calls for python-zaqarclient users, and
``openstack messaging`` commands (needs python-zaqarclient; the
commands also need python-openstackclient)."""
