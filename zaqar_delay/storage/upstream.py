"""Reach upstream Zaqar's private names, one module per backend.

Zaqar does not promise to keep names with a leading underscore. Each
backend's ``upstream`` module takes every such name it needs through
``private()``, so that they are listed in one place; a Zaqar that lacks
one fails the import with a message that names it, instead of an
AttributeError in the middle of a request.
"""

import importlib

from zaqar_delay import errors
from zaqar_delay import version


def private(module, name):
    """``module.name`` (``name`` may be dotted: ``Class.method``)."""
    try:
        found = importlib.import_module(module)
        for part in name.split('.'):
            found = getattr(found, part)
    except (ImportError, AttributeError) as exc:
        raise errors.UpstreamChanged(
            'zaqar %s has no %s.%s, which zaqar-delay %s uses (%s); this '
            'zaqar-delay was checked against zaqar %s'
            % (version.installed('zaqar'), module, name,
               version.installed('zaqar-delay'), exc,
               version.CHECKED_ZAQAR)) from exc
    return found


def pool_catalog(routing_controller):
    """The pool catalog (``zaqar.storage.pooling.Catalog``) behind one of
    Zaqar's pooling controllers: its private ``_pool_catalog``."""
    try:
        return routing_controller._pool_catalog
    except AttributeError as exc:
        raise errors.UpstreamChanged(
            'zaqar %s: %s has no _pool_catalog, which zaqar-delay %s uses; '
            'this zaqar-delay was checked against zaqar %s'
            % (version.installed('zaqar'), type(routing_controller).__name__,
               version.installed('zaqar-delay'),
               version.CHECKED_ZAQAR)) from exc
