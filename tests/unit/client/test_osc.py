"""``message post --due|--delay`` (``osc.PostWhen``), as cliff runs a
hook: its options added to the stock command's parser, then ``before``
on what was parsed."""

import argparse
import json

from osc_lib import exceptions
import testtools

from zaqar_delay.client import osc


def _parsed(*argv):
    parser = argparse.ArgumentParser()
    parser.add_argument('queue_name')
    parser.add_argument('messages', type=json.loads)
    hook = osc.PostWhen(command=None)
    hook.get_parser(parser)
    return hook, parser.parse_args(argv)


class PostWhenTest(testtools.TestCase):

    def test_each_message_gets_the_due_time(self):
        hook, args = _parsed('q', '[{"body": 1}, {"body": 2}]',
                             '--due', '2030-01-01T00:00:00.250Z')
        self.assertEqual(
            [{'body': 1, 'due': '2030-01-01T00:00:00.250Z'},
             {'body': 2, 'due': '2030-01-01T00:00:00.250Z'}],
            hook.before(args).messages)

    def test_each_message_gets_the_delay(self):
        hook, args = _parsed('q', '[{"body": 1}]', '--delay', '0')
        self.assertEqual([{'body': 1, 'delay': 0}],
                         hook.before(args).messages)

    def test_without_an_option_the_messages_are_as_given(self):
        hook, args = _parsed('q', '[{"body": 1, "delay": 5}]')
        self.assertEqual([{'body': 1, 'delay': 5}],
                         hook.before(args).messages)

    def test_a_message_with_its_own_time_is_refused(self):
        hook, args = _parsed('q', '[{"body": 1}, {"body": 2, "delay": 5}]',
                             '--due', '2030-01-01T00:00:00Z')
        error = self.assertRaises(exceptions.CommandError, hook.before, args)
        self.assertEqual('message 1 has its own delay: leave it out, or '
                         'leave out --due', str(error))

    def test_messages_that_are_not_a_list_of_objects_are_refused(self):
        hook, args = _parsed('q', '{"body": 1}', '--delay', '0')
        self.assertRaises(exceptions.CommandError, hook.before, args)

    def test_due_and_delay_together_are_refused(self):
        self.assertRaises(SystemExit, _parsed, 'q', '[{"body": 1}]',
                          '--delay', '0', '--due', '2030-01-01T00:00:00Z')
