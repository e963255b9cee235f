"""Swift answers that a ``swift.delay`` request expects and goes past."""

import contextlib

import swiftclient

BAD_REQUEST = 400           # e.g. an X-Delete-At already in Swift's past
NOT_FOUND = 404
# A container that still holds objects; a DELETE older than the object's
# last write.
CONFLICT = 409
PRECONDITION_FAILED = 412   # a create-only write, or X-If-Delete-At


@contextlib.contextmanager
def tolerating(*statuses):
    """Swallow a swiftclient error with one of ``statuses``.

    A ``return`` inside the block returns as usual; after a swallowed
    error the code after the block runs::

        with tolerating(NOT_FOUND):
            return client.get_object(container, name)
        return None
    """
    try:
        yield
    except swiftclient.ClientException as exc:
        if exc.http_status not in statuses:
            raise
