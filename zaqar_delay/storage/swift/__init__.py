"""The ``swift.delay`` storage driver."""
