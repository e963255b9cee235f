"""Backend-neutral suites: a backend's test module mixes one in with
its own set-up (see ``tests/fixtures``).
"""
