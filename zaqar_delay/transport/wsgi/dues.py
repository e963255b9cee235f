"""Due times in what a client reads, and gives, through ``wsgi.delay``.

Upstream's v2 resources format each message themselves, with a fixed
set of fields. A resource serving one request is a copy of upstream's
whose controller is wrapped (``serving``): the wrapper notes the due
time of every message the store returns, and ``add_dues`` writes them
into the response as ``due`` (``delay.iso_ms``), when the request asks
for them (``HEADER``: python-zaqarclient builds its message objects
from the fields it knows and fails on another). On a post, the wrapper
gives each message what upstream's resource would drop: its due time,
or a delay upstream's API ignores.
"""

import copy
import json

from zaqar.storage import errors as storage_errors

from zaqar_delay import delay
from zaqar_delay import errors
from zaqar_delay.storage import message as stored


class Recorder:
    """A controller that notes the due time of each message it returns
    (``dues``: {message id: unix seconds}); every call it does not
    define goes to the controller unchanged."""

    def __init__(self, controller):
        self._controller = controller
        self.dues = {}

    def __getattr__(self, name):
        return getattr(self._controller, name)

    def _noted(self, found):
        due = stored.due_of(found)
        if due is not None:
            self.dues[found['id']] = due
        return found

    def _each(self, messages):
        for message in messages:
            yield self._noted(message)


class MessageRecorder(Recorder):
    """``Recorder`` of a message controller; a post adds ``extras[i]``
    to its i-th message."""

    def __init__(self, controller, extras=()):
        super().__init__(controller)
        self.extras = extras
        self.post_failed = False    # the store failed a post: unknown

    def get(self, *args, **kwargs):
        return self._noted(self._controller.get(*args, **kwargs))

    def bulk_get(self, *args, **kwargs):
        return self._each(self._controller.bulk_get(*args, **kwargs))

    def list(self, *args, **kwargs):
        pages = self._controller.list(*args, **kwargs)
        yield self._each(next(pages))
        yield next(pages)

    def pop(self, *args, **kwargs):
        popped = self._controller.pop(*args, **kwargs)
        return [self._noted(m) for m in popped or []]

    def post(self, queue, messages, *args, **kwargs):
        messages = list(messages)
        for message, extra in zip(messages, self.extras):
            message.update(extra)
        try:
            return self._controller.post(queue, messages, *args, **kwargs)
        except (storage_errors.ConnectionError, errors.NotReplicated):
            self.post_failed = True
            raise


class ClaimRecorder(Recorder):
    """``Recorder`` of a claim controller."""

    def create(self, *args, **kwargs):
        claim_id, messages = self._controller.create(*args, **kwargs)
        return claim_id, [self._noted(m) for m in messages or []]

    def get(self, *args, **kwargs):
        meta, messages = self._controller.get(*args, **kwargs)
        return meta, [self._noted(m) for m in messages]


# A request with this header set to true gets each message's ``due``.
HEADER = 'Zaqar-Delay-Due'


def asked(req):
    """Whether the request asks for due times (``HEADER``)."""
    return (req.get_header(HEADER) or '').strip().lower() in (
        'true', '1', 'yes', 'on')


def serving(resource, attribute, recorder):
    """A copy of ``resource`` whose controller ``attribute`` is
    ``recorder``, to serve one request."""
    copied = copy.copy(resource)
    setattr(copied, attribute, recorder)
    return copied


def add_dues(resp, dues):
    """Write ``due`` into each message of the JSON response ``resp``
    (one message, or a ``messages`` list) that ``dues`` names."""
    if not dues or not resp.text:
        return
    document = json.loads(resp.text)
    found = document.get('messages') if 'messages' in document else [
        document]
    for message in found or []:
        if isinstance(message, dict) and message.get('id') in dues:
            message['due'] = delay.iso_ms(dues[message['id']])
    resp.text = json.dumps(document)
