"""Tempest plugin: API tests of delayed queues (needs tempest and
zaqar-tempest-plugin, which only the test requirements install)."""
