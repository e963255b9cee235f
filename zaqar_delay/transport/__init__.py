"""Zaqar transports that show and steer waiting messages."""
