"""History events as export records (``zaqar-delay-manage export
--history``), for the audit's true lateness (doc/source/pipeline.rst).

Pure: one flat record per event, the same columns whatever the kind or
the store, numbers as numbers and absent fields as None. The columns
are ``zaqar_delay.pipeline.schemas.HISTORY``'s.
"""

import json

from zaqar_delay.history import events

#: Every field of a history export record, in order.
FIELDS = ('project', 'queue', 'message_id', 'kind', 'at', 'ttl', 'delay',
          'due', 'dedup', 'claim_id', 'claim_count', 'wait', 'to', 'popped',
          'subscriber', 'status', 'replayed_as', 'body')

# Record field: (event field, conversion).
_FROM_FIELDS = {'ttl': ('ttl', int), 'delay': ('delay', float),
                'due': ('due', float), 'dedup': ('dedup', str),
                'claim_id': ('claim', str), 'claim_count': ('count', int),
                'wait': ('wait', float), 'to': ('to', str),
                'popped': ('popped', lambda v: bool(int(v))),
                'subscriber': ('subscriber', str),
                'status': ('status', int), 'replayed_as': ('as', str)}


def _value(fields, name, convert):
    value = fields.get(name)
    if value is None or value == '':
        return None
    return convert(value)


def record(project, queue, event, with_body=False):
    """The export record of ``event`` (an ``events.Event``) of
    ``queue``; ``body`` (a posted event's, as JSON text) only
    ``with_body``. Raises ValueError for a field that is not a number
    where one is expected."""
    found = {name: _value(event.fields, field, convert)
             for name, (field, convert) in _FROM_FIELDS.items()}
    body = None
    if with_body and event.kind == events.POSTED:
        body = json.dumps(event.fields.get('body'), separators=(',', ':'),
                          sort_keys=True)
    found.update(project=project, queue=queue, message_id=event.message_id,
                 kind=event.kind, at=float(event.at), body=body)
    return {name: found[name] for name in FIELDS}
