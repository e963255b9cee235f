import testtools

from zaqar_delay.history import events
from zaqar_delay.history import replay


def posted(mid, at=10, delay='5'):
    return events.Event(at, mid, events.POSTED,
                        {'ttl': '60', 'delay': delay, 'body': [mid]})


class ReplayTest(testtools.TestCase):

    def test_plan_skips_what_was_replayed_to_that_queue(self):
        history = [
            posted('a'), posted('b'), posted('c'),
            events.Event(20, 'a', events.DELETED, {}),
            events.Event(30, 'a', events.REPLAYED, {'to': 'q2', 'as': 'x'}),
            events.Event(30, 'b', events.REPLAYED, {'to': 'q3', 'as': 'y'}),
        ]
        todo, done = replay.plan(history, 'q2')
        self.assertEqual(['b', 'c'], [e.message_id for e in todo])
        self.assertEqual({'a': 'x'}, done)

    def test_digest_names_the_source_message_and_target(self):
        one = replay.digest('p.1', 'q', 'm', 'q2')
        self.assertEqual(40, len(one))
        self.assertEqual(one, replay.digest('p.1', 'q', 'm', 'q2'))
        self.assertNotEqual(one, replay.digest('p', '1.q', 'm', 'q2'))
        self.assertNotEqual(one, replay.digest('p.1', 'q', 'm', 'q3'))
        self.assertEqual(replay.digest(None, 'q', 'm', 'q'),
                         replay.digest('', 'q', 'm', 'q'))

    def test_message_keeps_its_delay_unless_told(self):
        self.assertEqual({'body': ['a'], 'ttl': 60, 'delay': 5},
                         replay.message(posted('a')))
        self.assertEqual(0, replay.message(posted('a'), delay=0)['delay'])

    def test_lines_say_what_was_done(self):
        event = posted('a', at=86400)
        self.assertEqual(
            ['1970-01-02T00:00:00Z  a  would post',
             '1970-01-02T00:00:00Z  a  posted as n',
             '1970-01-02T00:00:00Z  a  already posted as n'],
            [replay.as_line(replay.Replayed(event, new_id, again))
             for new_id, again in ((None, False), ('n', False),
                                   ('n', True))])
