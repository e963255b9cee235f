import testtools

from zaqar_delay import errors
from zaqar_delay.storage import history


class _Stores:
    """catalog.Stores' answer for one queue, without a deployment."""

    def __init__(self, name=None, pooled=False):
        self.name, self.pooled = name, pooled

    def store(self, queue, project):
        if self.name is None:
            raise errors.QueueNotPooled('no pool holds queue %r' % queue)
        return self.name, object()


class ReaderTest(testtools.TestCase):

    def test_a_store_keeping_history_gives_its_reader(self):
        module, _ = history.reader(_Stores('redis.delay'), 'q.1', 'p')
        self.assertTrue(callable(module.events))
        self.assertTrue(callable(module.Replayer))

    def test_a_store_keeping_none_says_so(self):
        error = self.assertRaises(errors.HistoryError, history.reader,
                                  _Stores('redis'), 'q', 'p')
        self.assertIn("the 'redis' message store keeps no history",
                      str(error))

    def test_a_queue_no_pool_holds_says_so(self):
        error = self.assertRaises(errors.HistoryError, history.reader,
                                  _Stores(None, pooled=True), 'q', 'p')
        self.assertIn("no pool holds queue 'q'", str(error))
