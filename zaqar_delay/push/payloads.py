"""What a subscriber gets of a message: Zaqar's notification, as
Zaqar's webhook task builds it, with the message's id."""

from oslo_serialization import jsonutils

from zaqar_delay.push import upstream


def payload(message):
    """What a subscriber gets of a message, due when posted or delayed:
    Zaqar's notification (``body``, ``ttl``) with the message's ``id``,
    so that a subscriber can tell a push made again from a new one."""
    return {'id': message['id'], 'body': message['body'],
            'ttl': message['ttl']}


def webhook_request(subscription, queue, message):
    """(data, headers) of a webhook push, as Zaqar's webhook task
    builds them."""
    options = subscription.get('options') or {}
    body = dict(payload(message), queue_name=queue,
                Message_Type=upstream.NOTIFICATION)
    data = jsonutils.dumps(body)
    if 'post_data' in options:
        data = options['post_data'].replace('"$zaqar_message$"', data)
    headers = {'Content-Type': 'application/json'}
    headers.update(options.get('post_headers') or {})
    return data, headers
