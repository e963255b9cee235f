"""Swift answers that a ``swift.delay`` request expects and goes past."""

import contextlib

import swiftclient

BAD_REQUEST = 400           # e.g. an X-Delete-At already in Swift's past
NOT_FOUND = 404
CONFLICT = 409              # a container that still holds objects
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


def again_if_refused(write):
    """Run ``write()``, and once more if Swift answers 400.

    A write works out its ``X-Delete-At`` from the clock when it is made;
    one slowed down (upstream's put-or-create first makes the container,
    then writes again with the same headers) can reach Swift after the
    second it names, which Swift refuses as a time in its past. The
    second try works the time out again.
    """
    try:
        return write()
    except swiftclient.ClientException as exc:
        if exc.http_status != BAD_REQUEST:
            raise
    return write()
