"""The ``mongodb.delay`` and ``mongodb.fifo.delay`` storage drivers."""
