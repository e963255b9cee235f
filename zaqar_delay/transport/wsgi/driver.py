"""The ``wsgi.delay`` transport: upstream's v2 WSGI API, unchanged, with
due times shown and steered (doc/source/user.rst).

Enable it with ``[drivers] transport = wsgi.delay``; it takes upstream's
``[drivers:transport:wsgi]`` options. Every route of upstream's ``wsgi``
is served as upstream serves it, but for these:

- message reads (one, by ids, a list page, a pop) and claims (create,
  get) give each message its ``due`` time, when the request has the
  header ``Zaqar-Delay-Due: true`` (python-zaqarclient fails on a field
  it does not know);
- a post takes ``due`` (an ISO 8601 time) on a message instead of
  ``delay``, and checks ``delay`` on every queue;
- ``PATCH /v2/queues/{queue}/messages/{id}`` reschedules a message;
- ``POST /v2/queues/{queue}/messages/move`` moves messages to another
  queue of the project.
"""

from zaqar.conf import transport
from zaqar.transport.wsgi import driver as upstream_driver

from zaqar_delay import opts
from zaqar_delay.transport import policies
from zaqar_delay.transport import upstream
from zaqar_delay.transport.wsgi import bodies
from zaqar_delay.transport.wsgi import claims
from zaqar_delay.transport.wsgi import messages

MESSAGES = '/v2/queues/{queue_name}/messages'


class Driver(upstream_driver.Driver):

    def _init_routes(self):
        super()._init_routes()
        opts.register_opts(self._conf)
        settings = upstream.settings(self)
        validate, defaults = settings['_validate'], settings['_defaults']
        wsgi_conf = settings['_wsgi_conf']
        posting = bodies.Posting(
            self._conf[transport.GROUP_NAME].max_message_delay,
            self._conf[opts.GROUP].delay_without_default == opts.APPLY)
        storage = settings['_storage']
        routes = [
            (MESSAGES, messages.CollectionResource(
                posting, wsgi_conf, validate, storage.message_controller,
                storage.queue_controller, defaults.message_ttl,
                settings['_encryptor_factory'])),
            (MESSAGES + '/{message_id}', messages.ItemResource(
                posting, storage.message_controller,
                storage.queue_controller, settings['_encryptor_factory'])),
            (MESSAGES + '/move', messages.MoveResource(
                posting, validate, storage.message_controller,
                storage.queue_controller)),
            ('/v2/queues/{queue_name}/claims', claims.CollectionResource(
                wsgi_conf, validate, storage.claim_controller,
                defaults.claim_ttl, defaults.claim_grace)),
            ('/v2/queues/{queue_name}/claims/{claim_id}',
             claims.ItemResource(wsgi_conf, validate,
                                 storage.claim_controller,
                                 defaults.claim_ttl, defaults.claim_grace)),
        ]
        for route, resource in routes:
            self.app.add_route(route, resource)

    def _init_middleware(self):
        super()._init_middleware()
        policies.register(upstream.enforcer())
