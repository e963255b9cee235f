"""Delayed queues for OpenStack Zaqar: storage drivers and tools."""
