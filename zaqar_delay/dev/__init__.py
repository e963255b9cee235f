"""Local services for development: what ``zaqar-delay-devserver`` and
the test fixtures share (a launcher of child processes, free ports, the
redis-server to run, and a redis-server with a zaqar-server on it)."""
