"""Reads of the store-wide sorted sets (pending pushes, schedules)."""


def earliest(client, key):
    """The lowest score of the sorted set ``key`` (a due time), or None
    when it is empty: one ``ZRANGE``."""
    first = client.zrange(key, 0, 0, withscores=True)
    return first[0][1] if first else None
