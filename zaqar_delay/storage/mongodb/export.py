"""Read a queue's messages out of a MongoDB store, for ``export``.

Reads upstream Zaqar's message documents in marker (``k``) order, a
page at a time, so it reads a ``mongodb`` store as well as a
``mongodb.delay`` one.
"""

import calendar

from zaqar.storage.mongodb import utils

from zaqar_delay.storage import base
from zaqar_delay.storage import export
from zaqar_delay.storage.mongodb import queries


class Export(base.Export):
    """Upstream's records of a mongodb store, a page at a time."""

    def records(self, queue, project, batch):
        controller = self.driver.message_controller
        collection = controller.collection(queue, project)
        scope = utils.scope_queue_name(queue, project)
        marker = -1
        while True:
            page = list(collection.find({'p_q': scope, 'k': {'$gt': marker}},
                                        sort=[('k', 1)], limit=batch))
            if not page:
                return
            marker = page[-1]['k']
            for doc in page:
                if doc.get('s') == queries.PROCESSED:   # kept for history
                    continue
                claim = doc.get('c') or {}
                claim_id = claim.get('id')
                created = utils.oid_ts(doc['_id'])
                yield export.record(
                    id=str(doc['_id']), created=created, ttl=doc['t'],
                    # ``x``: the expiry of a message kept for its history.
                    expires=doc.get('x') or calendar.timegm(
                        doc['e'].utctimetuple()),
                    due=doc.get('d'),
                    claim_id=None if claim_id is None else str(claim_id),
                    claim_expires=claim.get('e'),
                    claim_count=claim.get('c', 0), body=doc.get('b'))
