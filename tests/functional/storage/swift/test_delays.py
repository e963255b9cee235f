"""The delay behaviour suite on ``swift.delay``, and due times written
in whole seconds by earlier versions beside due times to the
millisecond."""

import datetime

from oslo_serialization import jsonutils
from oslo_utils import timeutils

from tests.common import behaviour
from tests.fixtures import swift_store
from zaqar_delay import delay
from zaqar_delay.storage.swift import index as idx
from zaqar_delay.storage.swift import objects
from zaqar_delay.storage.swift import upstream

PROJECT = behaviour.PROJECT


class SwiftDelayBehaviourTest(behaviour.DelayBehaviour,
                              swift_store.DelayTestBase):
    pass


class SwiftWholeSecondDueTest(behaviour.Helpers, swift_store.DelayTestBase):
    """Messages whose due time and ``due`` entry are whole seconds, as
    earlier versions wrote them, are due at that second, listed in due
    order among the others, and leave no entry when deleted."""

    def setUp(self):
        super().setUp()
        # Half a second into a second: the posts below are due at +1.5.
        timeutils.set_time_override(
            timeutils.utcnow().replace(microsecond=500000))
        self.index = self.messages.index(self.queue, PROJECT)
        self.zero = timeutils.utcnow().replace(microsecond=0)
        self.start = int(timeutils.utcnow_ts())

    def as_written_before(self, mid, due):
        """Give message ``mid`` (delayed) the whole-second due time
        ``due``, in its content and its ``due`` entry's name."""
        client = self.driver.connection
        container = upstream.message_container(self.queue, PROJECT)
        headers, body = client.get_object(container, mid)
        content = dict(jsonutils.loads(body), delay_expires=due)
        expires = int(headers['x-delete-at'])
        objects.put(client, container, mid, jsonutils.dumps(content),
                    expires, content_type='application/json',
                    headers={'x-object-meta-clientid':
                             headers['x-object-meta-clientid']})
        (name,) = [n for n in self.index.names(idx.DUE) if n.endswith(mid)]
        self.index.put(idx.DUE, '%010d.%010d.%s' % (due, expires, mid),
                       expires)
        self.index.delete(idx.DUE, name)

    def at(self, seconds):
        """Set Zaqar's clock ``seconds`` after the start's second."""
        timeutils.set_time_override(
            self.zero + datetime.timedelta(seconds=seconds))

    def test_old_and_new_due_times_come_due_in_order(self):
        old_first, new_first = self.post(1, 1)      # due at +1.5
        self.at(0.75)
        (new_second,) = self.post(1)                # due at +1.75
        (old_second,) = self.post(1)
        self.as_written_before(old_first, self.start + 1)
        self.as_written_before(old_second, self.start + 2)
        self.assertEqual([old_first, new_first, new_second, old_second],
                         [idx.untimed(n)[2]
                          for n in self.index.names(idx.DUE)])
        self.assertEqual(delay.iso_ms(self.start + 1),
                         self.stats_of(self.queue, PROJECT)['next_due'])
        for at, comes in ((0.999, []), (1, [old_first]), (1.499, []),
                          (1.5, [new_first]), (1.999, [new_second]),
                          (2, [old_second])):
            self.at(at)
            self.assertEqual(comes, self.claim()[1], at)

    def test_a_deleted_message_leaves_no_whole_second_entry(self):
        (mid,) = self.post(600)
        self.as_written_before(mid, self.start + 600)
        self.messages.delete(self.queue, mid, project=PROJECT)
        self.assertEqual([], self.index.names(idx.DUE))
        self.assertEqual([], self.index.names(idx.WAITING))
