"""``wsgi.delay``'s claim resources: upstream's v2 ones, with ``due`` on
each message a claim returns when the request asks (``dues.HEADER``)."""

from zaqar.transport.wsgi.v2_0 import claims as upstream_claims

from zaqar_delay.transport import upstream
from zaqar_delay.transport.wsgi import dues


def _served(resource, responder, req, resp, **params):
    if not dues.asked(req):
        return responder(resource, req, resp, **params)
    recorder = dues.ClaimRecorder(getattr(resource,
                                          upstream.CLAIM_CONTROLLER))
    responder(dues.serving(resource, upstream.CLAIM_CONTROLLER, recorder),
              req, resp, **params)
    dues.add_dues(resp, recorder.dues)


Upstream = upstream_claims.CollectionResource
UpstreamItem = upstream_claims.ItemResource


class CollectionResource(Upstream):

    def on_post(self, req, resp, project_id, queue_name):
        _served(self, Upstream.on_post, req, resp, project_id=project_id,
                queue_name=queue_name)


class ItemResource(UpstreamItem):

    def on_get(self, req, resp, project_id, queue_name, claim_id):
        _served(self, UpstreamItem.on_get, req, resp,
                project_id=project_id, queue_name=queue_name,
                claim_id=claim_id)
