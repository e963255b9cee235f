"""``zaqar-delay-dispatcher`` starting while its store is unreachable."""

import threading
from unittest import mock

import testtools
from zaqar.common import errors as zaqar_errors

from zaqar_delay.cmd import dispatcher
from zaqar_delay import errors


class LoadTest(testtools.TestCase):

    def test_a_store_that_cannot_be_loaded_is_tried_again(self):
        made = object()
        tries = [zaqar_errors.InvalidDriver('refused'),
                 zaqar_errors.InvalidDriver('refused'), made]
        waits = []

        class Stop(threading.Event):
            def wait(self, timeout=None):
                waits.append(timeout)
                return False

        def build(conf):
            outcome = tries.pop(0)
            if isinstance(outcome, Exception):
                raise outcome
            return outcome

        with mock.patch.object(dispatcher, 'build', build):
            self.assertIs(made, dispatcher._built(None, Stop()))
        self.assertEqual([1, 2], waits)

    def test_waits_grow_to_a_bound_and_stopping_ends_them(self):
        waits = []

        class Stop(threading.Event):
            def wait(self, timeout=None):
                waits.append(timeout)
                return len(waits) == 8

        def build(conf):
            raise zaqar_errors.InvalidDriver('refused')

        with mock.patch.object(dispatcher, 'build', build):
            self.assertIsNone(dispatcher._built(None, Stop()))
        self.assertEqual([1, 2, 4, 8, 16, 30, 30, 30], waits)

    def test_a_store_that_does_not_answer_is_not_loaded(self):
        made = object()
        answers = [errors.CommandFailure(
            'cannot reach the message store'), None]
        waits, built = [], []

        class Stop(threading.Event):
            def wait(self, timeout=None):
                waits.append(timeout)
                return False

        def check():
            answer = answers.pop(0)
            if answer:
                raise answer

        def build(conf):
            built.append(conf)
            return made

        with mock.patch.object(dispatcher, 'build', build):
            self.assertIs(made, dispatcher._built('conf', Stop(), check))
        self.assertEqual(([1], ['conf']), (waits, built))
