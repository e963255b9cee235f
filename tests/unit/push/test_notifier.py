"""The notifier stage leaves every push to a dispatcher."""

import types
from unittest import mock

import testtools
from oslo_config import cfg
from zaqar.notification import notifier as upstream_notifier
from zaqar.storage import pooling

from zaqar_delay import opts
from zaqar_delay.push import notifier
from zaqar_delay.push import pools


def _driver(pushes):
    conf = {opts.PUSH_GROUP: types.SimpleNamespace(dispatch_in_server=False)}
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

    def test_with_pending_pushes_it_pushes_nothing_itself(self):
        # Due or delayed, the dispatcher pushes every message, with the
        # same body; the stage only wakes the in-server one.
        stage = self.stage(True)
        stage.dispatcher = mock.Mock()
        messages = [{'body': 'default', 'ttl': 60},
                    {'body': 'now', 'ttl': 60, 'delay': 0},
                    {'body': 'later', 'ttl': 600, 'delay': 5}]
        self.assertEqual([], self.posted(stage, messages))
        stage.dispatcher.poke.assert_called_once_with()

    def test_without_pending_pushes_it_is_zaqars_notifier(self):
        messages = [{'body': 'a', 'ttl': 600, 'delay': 5}]
        self.assertEqual([['a']], self.posted(self.stage(False), messages))


class Catalog:
    """What the stage reads of Zaqar's pool catalog."""

    def __init__(self, in_server):
        self.control = types.SimpleNamespace(conf=cfg.ConfigOpts())
        opts.register_opts(self.control.conf)
        self.control.conf.set_override('dispatch_in_server', in_server,
                                       group=opts.PUSH_GROUP)

    def get_subscription_controller(self, queue, project=None):
        raise AssertionError('the stage routed a call to a pool')


class PooledStageTest(testtools.TestCase):
    """In front of the pool catalog the stage passes: each pool's own
    pipeline has the stage, which pushes."""

    def stage(self, in_server):
        routing = pooling.SubscriptionController(Catalog(in_server))
        with mock.patch.object(pools, 'start_in_server') as start:
            stage = notifier.NotifierDriver(subscription_controller=routing,
                                            queue_controller=Queues(30))
        return stage, start

    def test_it_pushes_nothing_and_wakes_the_pool_dispatchers(self):
        stage, start = self.stage(True)
        start.assert_called_once()
        with mock.patch.object(upstream_notifier.NotifierDriver,
                               'post') as post:
            stage.post('q', [{'body': 'now', 'ttl': 60, 'delay': 0}],
                       'client', 'p')
        post.assert_not_called()
        start.return_value.poke.assert_called_once_with()

    def test_without_in_server_dispatch_it_starts_nothing(self):
        stage, start = self.stage(False)
        start.assert_not_called()
        self.assertIsNone(stage.post('q', [{'body': 1, 'ttl': 60}], 'c',
                                     'p'))
