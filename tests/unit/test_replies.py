"""An HTTP reply read whole, as requests shows one."""

import testtools

from zaqar_delay import replies


class ReplyTest(testtools.TestCase):

    def test_below_400_is_ok_and_true(self):
        for status, ok in ((200, True), (204, True), (302, True),
                           (400, False), (503, False)):
            reply = replies.Reply(status, b'')
            self.assertEqual((ok, ok), (reply.ok, bool(reply)), status)

    def test_text_json_reason_and_headers(self):
        reply = replies.Reply(201, '{"a": "\u00e9"}'.encode(),
                              reason='Created', headers={'X': '1'})
        self.assertEqual(('{"a": "\u00e9"}', {'a': '\u00e9'}, 'Created',
                          {'X': '1'}),
                         (reply.text, reply.json(), reply.reason,
                          reply.headers))
        self.assertEqual(('', {}), (replies.Reply(204, b'').reason,
                                    replies.Reply(204, b'').headers))
