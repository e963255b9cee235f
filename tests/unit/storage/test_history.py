import testtools
from zaqar.storage.redis import driver as upstream_driver

from zaqar_delay import errors
from zaqar_delay.storage import history
from zaqar_delay.storage.redis import driver
from zaqar_delay.storage.redis import history as redis_history


def _driver(cls):
    """A data driver of ``cls``, not connected to anything."""
    return cls.__new__(cls)


class _Stores:
    """catalog.Stores' answer for one queue, without a deployment."""

    def __init__(self, name=None, pooled=False, data_class=None):
        self.name, self.pooled = name, pooled
        self.data_class = data_class or upstream_driver.DataDriver

    def store(self, queue, project):
        if self.name is None:
            raise errors.QueueNotPooled('no pool holds queue %r' % queue)
        return self.name, _driver(self.data_class)


class ReaderTest(testtools.TestCase):

    def test_a_store_keeping_history_gives_its_history_class(self):
        found = history.reader(
            _Stores('redis.delay', data_class=driver.DataDriver), 'q.1', 'p')
        self.assertIsInstance(found, redis_history.History)

    def test_a_store_keeping_none_says_so(self):
        error = self.assertRaises(errors.HistoryError, history.reader,
                                  _Stores('redis'), 'q', 'p')
        self.assertIn("the 'redis' message store keeps no history "
                      "(mongodb.delay, mongodb.fifo.delay, redis.delay, "
                      "swift.delay do)", str(error))

    def test_a_queue_no_pool_holds_says_so(self):
        error = self.assertRaises(errors.HistoryError, history.reader,
                                  _Stores(None, pooled=True), 'q', 'p')
        self.assertIn("no pool holds queue 'q'", str(error))
