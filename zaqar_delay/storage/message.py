"""A message as the ``*.delay`` drivers return it: Zaqar's dict, with
its due time beside its keys."""


class Message(dict):
    """Zaqar's message dict, with ``due``: the time the message is (or
    was) due, unix seconds to the millisecond, or None.

    ``due`` is an attribute, not a key: Zaqar's storage contract fixes a
    message's keys, and Zaqar's transports show only those they know.
    The ``wsgi.delay`` transport reads it (``due_of``).
    """

    __slots__ = ('due',)

    def __init__(self, fields, due=None):
        super().__init__(fields)
        self.due = due


def due_of(message):
    """The due time of a message a driver returned, or None."""
    return getattr(message, 'due', None)
