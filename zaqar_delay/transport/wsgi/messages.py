"""``wsgi.delay``'s message resources: upstream's v2 ones with due times,
reschedules (``PATCH .../messages/{id}``) and moves
(``POST .../messages/move``).

What a request may ask is checked here (a 400 that says why); what it
asks of a message is done by the store's message controller
(``reschedule``, ``move``), whose errors become 404, 409 or 400.
"""

import contextlib
import io
import json

import falcon
from oslo_log import log as logging
from zaqar.common import decorators
from zaqar.storage import errors as storage_errors
from zaqar.transport import acl
from zaqar.transport import utils
from zaqar.transport import validation
from zaqar.transport.wsgi import errors as wsgi_errors
from zaqar.transport.wsgi import utils as wsgi_utils
from zaqar.transport.wsgi.v2_0 import messages as upstream_messages

from zaqar_delay import delay
from zaqar_delay import errors
from zaqar_delay.storage import message as stored
from zaqar_delay.transport import upstream
from zaqar_delay.transport.wsgi import bodies
from zaqar_delay.transport.wsgi import dues

LOG = logging.getLogger(__name__)
# A post whose store failed mid-way (a failover, a replica that did not
# acknowledge): the messages may be stored.
MAYBE_STORED = ('The messages could not be acknowledged, but they may '
                'have been stored: a post sent again can store them twice, '
                'unless each message carries an idempotency_key (or the '
                'queue has _dedup_key).')


@contextlib.contextmanager
def _answered(failed):
    """Turn what a store's ``reschedule`` or ``move`` raises into the
    HTTP error: refused or invalid 400, claimed 409, not found 404;
    a store that does not answer (Zaqar's ``ConnectionError``) is
    logged in one line, anything else with its traceback, and both are
    answered 503 ``failed``."""
    try:
        yield
    except (validation.ValidationFailed, errors.Refused) as exc:
        raise wsgi_errors.HTTPBadRequestAPI(str(exc))
    except storage_errors.MessageIsClaimed as exc:
        raise falcon.HTTPConflict(title='Message is claimed',
                                  description=str(exc))
    except storage_errors.DoesNotExist as exc:
        raise wsgi_errors.HTTPNotFound(str(exc))
    except storage_errors.ConnectionError as exc:
        LOG.error('%s %s', failed, exc)
        raise wsgi_errors.HTTPServiceUnavailable(failed) from None
    except Exception:
        LOG.exception(failed)
        raise wsgi_errors.HTTPServiceUnavailable(failed)


Upstream = upstream_messages.CollectionResource
UpstreamItem = upstream_messages.ItemResource


class CollectionResource(Upstream):
    """Upstream's, with ``due`` on each message read when asked
    (``dues.HEADER``), and ``due`` (or a ``delay`` on any queue) taken
    on a post."""

    def __init__(self, posting, *args):
        super().__init__(*args)
        self.posting = posting

    def _serve(self, responder, req, resp, extras=(), **params):
        recorder = dues.MessageRecorder(self._message_controller, extras)
        try:
            responder(dues.serving(self, upstream.MESSAGE_CONTROLLER,
                                   recorder), req, resp, **params)
        except falcon.HTTPServiceUnavailable:
            if recorder.post_failed:
                raise wsgi_errors.HTTPServiceUnavailable(
                    MAYBE_STORED) from None
            raise
        if dues.asked(req):
            dues.add_dues(resp, recorder.dues)

    def on_get(self, req, resp, project_id, queue_name):
        self._serve(Upstream.on_get, req, resp, project_id=project_id,
                    queue_name=queue_name)

    def on_delete(self, req, resp, project_id, queue_name):
        self._serve(Upstream.on_delete, req, resp, project_id=project_id,
                    queue_name=queue_name)

    def on_post(self, req, resp, project_id, queue_name):
        extras = ()
        try:
            extras = self._extras(req)
        except errors.Refused as exc:
            raise wsgi_errors.HTTPBadRequestAPI(str(exc))
        self._serve(Upstream.on_post, req, resp, extras=extras,
                    project_id=project_id, queue_name=queue_name)

    def _extras(self, req):
        """``Posting.extras`` of the body, read and given back to the
        request; () when upstream's resource answers the body itself (no
        length, too large, not JSON)."""
        try:
            self._validate.message_length(req.content_length)
        except validation.ValidationFailed:
            return ()
        if not req.content_length:
            return ()
        raw = req.stream.read(req.content_length)
        req.stream = io.BytesIO(raw)
        try:
            document = json.loads(raw)
        except ValueError:
            return ()
        return self.posting.extras(document)


class ItemResource(UpstreamItem):
    """Upstream's, with ``due`` when asked, and ``PATCH`` to
    reschedule (whose answer always has it)."""

    def __init__(self, posting, *args):
        super().__init__(*args)
        self.posting = posting

    def on_get(self, req, resp, project_id, queue_name, message_id):
        if not dues.asked(req):
            return UpstreamItem.on_get(self, req, resp, project_id,
                                       queue_name, message_id)
        recorder = dues.MessageRecorder(self._message_controller)
        UpstreamItem.on_get(dues.serving(self, upstream.MESSAGE_CONTROLLER,
                                         recorder),
                            req, resp, project_id, queue_name, message_id)
        dues.add_dues(resp, recorder.dues)

    @decorators.TransportLog('Messages item')
    @acl.enforce('messages:update')
    def on_patch(self, req, resp, project_id, queue_name, message_id):
        document = wsgi_utils.deserialize(req.stream, req.content_length)
        with _answered('Message could not be rescheduled.'):
            when = self.posting.when(document)
            found = self._message_controller.reschedule(
                queue_name, message_id, project=project_id, **when)
        body = wsgi_utils.format_message(found, req.path.rsplit('/', 2)[0],
                                         found.get('claim_id'))
        body['due'] = delay.iso_ms(stored.due_of(found))
        resp.text = utils.to_json(body)


class MoveResource:
    """``POST /v2/queues/{queue_name}/messages/move``: move messages no
    live claim holds to another queue of the project."""

    def __init__(self, posting, validate, message_controller,
                 queue_controller):
        self.posting = posting
        self._validate = validate
        self._message_controller = message_controller
        self._queue_controller = queue_controller

    @decorators.TransportLog('Messages move')
    @acl.enforce('messages:move')
    def on_post(self, req, resp, project_id, queue_name):
        document = wsgi_utils.deserialize(req.stream, req.content_length)
        with _answered('Messages could not be moved.'):
            asked = bodies.move(document, queue_name)
            self._validate.queue_identification(asked.to, project_id)
            when = self.posting.when(document, required=False)
            if not self._queue_controller.exists(queue_name, project_id):
                raise storage_errors.QueueDoesNotExist(queue_name,
                                                       project_id)
            if not self._queue_controller.exists(asked.to, project_id):
                self._queue_controller.create(asked.to, project=project_id)
            moved = self._message_controller.move(
                queue_name, asked.to, project=project_id, ids=asked.ids,
                limit=asked.limit, **when)
        base = req.path.rsplit('/', 3)[0]
        resp.text = utils.to_json({'moved': [
            {'id': old, 'new_id': new,
             'href': '%s/%s/messages/%s' % (base, asked.to, new)}
            for old, new in moved]})
