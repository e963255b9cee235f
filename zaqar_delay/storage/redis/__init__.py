"""The ``redis.delay`` storage driver."""
