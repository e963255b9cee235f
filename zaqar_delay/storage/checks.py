"""A queue stage of every delay driver: queue metadata it would not
honour is refused with a 400 and a clear message, not stored.

Zaqar loads it from each delay driver's ``<driver module>.queue.stages``
entry point (as the stats stage), in front of the queue controller: on a
queue PUT (create) and on a metadata PATCH. Pooled deployments put
Zaqar's pool catalog in front of the queue controller instead, so there
the metadata is stored unchecked, and a driver treats a value it refuses
as absent (``retry.of_queue``).
"""

from zaqar.conf import transport

from zaqar_delay import dedup
from zaqar_delay import errors
from zaqar_delay import retry


def check(metadata, max_delay, max_ttl):
    """Raise DelayError for metadata the delay drivers refuse."""
    metadata = metadata or {}
    if retry.KEY in metadata:
        retry.check(metadata[retry.KEY], max_delay)
    dedup.check(metadata, max_ttl)


class QueueMetadataCheck:
    """The stage: ``create`` and ``set_metadata`` check, then pass."""

    def __init__(self, driver, control_driver):
        self.max_delay = driver.max_delay
        self.max_ttl = driver.conf[transport.GROUP_NAME].max_message_ttl

    def create(self, name, metadata=None, project=None):
        try:
            check(metadata, self.max_delay, self.max_ttl)
        except errors.DelayError as exc:
            raise errors.QueueMetadataRefused(str(exc)) from exc

    def set_metadata(self, name, metadata, project=None):
        check(metadata, self.max_delay, self.max_ttl)
