"""Find a backend's services through the driver ``zaqar.conf`` names.

A service is the class a delay data driver names (``base``): the
driver is this package's ``zaqar.data.storage`` entry point of the
message store's name or, for upstream's driver of a store, of that name
with ``.delay`` (``redis`` is read by ``redis.delay``'s classes, which
read upstream's records).
"""

from importlib import metadata

GROUP = 'zaqar.data.storage'
SUFFIX = '.delay'
KINDS = ('push', 'schedule', 'metrics', 'history', 'export', 'migrate',
         'probe')


def drivers():
    """{name: entry point} of this package's data drivers."""
    return {point.name: point
            for point in metadata.entry_points(group=GROUP)
            if point.value.startswith(__name__.split('.')[0] + '.')}


def driver_class(name):
    """The delay data driver class for the message store ``name``, or
    None when this package has none for it."""
    found = drivers()
    for candidate in (name, name + SUFFIX):
        if candidate in found:
            return found[candidate].load()
    return None


def service(name, kind):
    """The ``kind`` class (``KINDS``) for the message store ``name``, or
    None."""
    return getattr(driver_class(name), kind + '_class', None)


def offering(kind):
    """The names of this package's drivers that keep ``kind``, sorted."""
    return sorted(name for name, point in drivers().items()
                  if getattr(point.load(), kind + '_class', None))
