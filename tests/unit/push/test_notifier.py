"""The notifier stage pushes due messages at once and leaves the rest."""

import types
from unittest import mock

import testtools
from zaqar.notification import notifier as upstream_notifier

from zaqar_delay.push import notifier


def _driver(pushes):
    conf = types.SimpleNamespace(
        delay_push=types.SimpleNamespace(dispatch_in_server=False))
    return types.SimpleNamespace(
        pushes=pushes, conf=conf, max_delay=3600,
        delay_conf=types.SimpleNamespace(ttl_shorter_than_delay='reject'))


class Queues:
    def __init__(self, default):
        self.default = default

    def get_metadata(self, queue, project=None):
        return {'_default_message_delay': self.default}

    def get(self, queue, project=None):
        return self.get_metadata(queue, project)


class NotifierStageTest(testtools.TestCase):

    def stage(self, pushes, default=30):
        subscriptions = types.SimpleNamespace(driver=_driver(pushes))
        return notifier.NotifierDriver(subscription_controller=subscriptions,
                                       queue_controller=Queues(default))

    def posted(self, stage, messages):
        with mock.patch.object(upstream_notifier.NotifierDriver,
                               'post') as post:
            stage.post('q', messages, 'client', 'p')
        return [[m['body'] for m in call.args[1]]
                for call in post.call_args_list]

    def test_only_messages_due_now_are_pushed_when_posted(self):
        messages = [{'body': 'default', 'ttl': 60},
                    {'body': 'now', 'ttl': 60, 'delay': 0},
                    {'body': 'later', 'ttl': 600, 'delay': 5}]
        self.assertEqual([['now']], self.posted(self.stage(True), messages))

    def test_nothing_due_nothing_pushed_now(self):
        self.assertEqual([], self.posted(self.stage(True), [
            {'body': 'later', 'ttl': 600, 'delay': 5}]))

    def test_on_a_queue_without_a_default_delay_everything_is_due(self):
        # Zaqar's API drops ``delay`` from messages posted to such a queue.
        messages = [{'body': 'a', 'ttl': 60}]
        self.assertEqual([['a']], self.posted(self.stage(True, 0), messages))

    def test_without_pending_pushes_it_is_zaqars_notifier(self):
        messages = [{'body': 'a', 'ttl': 600, 'delay': 5}]
        self.assertEqual([['a']], self.posted(self.stage(False), messages))
