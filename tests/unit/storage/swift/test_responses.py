import swiftclient
import testtools

from zaqar_delay.storage.swift import responses


def _fail(status):
    raise swiftclient.ClientException('no', http_status=status)


class ToleratingTest(testtools.TestCase):

    def test_a_listed_status_is_swallowed_and_the_code_after_runs(self):
        def read():
            with responses.tolerating(responses.NOT_FOUND):
                return _fail(404)
            return 'after'
        self.assertEqual('after', read())

    def test_a_return_in_the_block_returns(self):
        def read():
            with responses.tolerating(responses.NOT_FOUND):
                return 'inside'
            return 'after'
        self.assertEqual('inside', read())

    def test_another_status_is_raised(self):
        def read():
            with responses.tolerating(responses.NOT_FOUND,
                                      responses.CONFLICT):
                _fail(503)
        error = self.assertRaises(swiftclient.ClientException, read)
        self.assertEqual(503, error.http_status)
