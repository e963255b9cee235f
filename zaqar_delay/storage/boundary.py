"""Where a delay driver or stage answers Zaqar: zaqar-delay's errors
turned into the upstream errors Zaqar's transports answer with a 400,
with the same text.

=========================  ========================================
raised here                reaches Zaqar as
=========================  ========================================
``Refused``                ``ValidationFailed``
``QueueMetadataRefused``   ``FlavorDoesNotExist`` (wsgi queue PUT),
                           ``ValidationFailed`` (websocket)
=========================  ========================================
"""

import functools

from oslo_config import cfg
from zaqar.common import consts
from zaqar.conf import drivers
from zaqar.storage import errors as storage_errors
from zaqar.transport import validation

from zaqar_delay import errors


def invalid(exc):
    """``exc``'s text as Zaqar's ``ValidationFailed``."""
    return validation.ValidationFailed('{0}', str(exc))


def refusing(method):
    """``method``, whose ``Refused`` reaches Zaqar as ``invalid``."""
    @functools.wraps(method)
    def answer(*args, **kwargs):
        try:
            return method(*args, **kwargs)
        except errors.Refused as exc:
            raise invalid(exc) from exc
    return answer


def transport(conf):
    """``[drivers] transport`` of the server ``conf`` configures (Zaqar's
    default, wsgi, where that group is not registered)."""
    try:
        return conf[drivers.GROUP_NAME].transport
    except (cfg.NoSuchOptError, cfg.NoSuchGroupError):
        return consts.TRANSPORT_WSGI


def refused_create(exc, conf):
    """A ``QueueMetadataRefused`` as the error the transport of ``conf``
    answers a queue create with a 400 and ``exc``'s text: the websocket
    transport does so for a ``ValidationFailed``, the wsgi queue PUT
    only for a ``FlavorDoesNotExist`` (any other error is a 503)."""
    if transport(conf) == consts.TRANSPORT_WEBSOCKET:
        return invalid(exc)
    answer = storage_errors.FlavorDoesNotExist(exc.queue)
    answer.args = (str(exc),)
    return answer
