import falcon
import fixtures
import testtools
from zaqar.storage import errors as storage_errors

from zaqar_delay import errors
from zaqar_delay.transport.wsgi import messages

FAILED = 'Messages could not be moved.'


class AnsweredTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.log = self.useFixture(fixtures.FakeLogger(
            name=messages.LOG.logger.name))

    def answered(self, exc):
        def fail():
            with messages._answered(FAILED):
                raise exc
        return self.assertRaises(falcon.HTTPServiceUnavailable, fail)

    def test_a_store_that_does_not_answer_logs_one_line(self):
        answer = self.answered(errors.StoreUnavailable(
            store='Swift', cause='Object PUT failed: 503'))
        self.assertIn(FAILED, answer.description)
        self.assertEqual(
            FAILED + ' Swift is unavailable: Object PUT failed: 503\n',
            self.log.output)

    def test_zaqars_connection_error_too(self):
        self.answered(storage_errors.ConnectionError())
        self.assertNotIn('Traceback', self.log.output)

    def test_anything_else_keeps_its_traceback(self):
        self.answered(KeyError('bug'))
        self.assertIn('Traceback', self.log.output)
