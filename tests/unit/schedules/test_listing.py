"""``zaqar-delay-manage schedules``: one JSON line per schedule."""

import io
import json
import types

from zaqar.storage import errors
import testtools

from zaqar_delay.schedules import definition
from zaqar_delay.schedules import listing
from zaqar_delay.schedules import ticks


class ListingTest(testtools.TestCase):

    def ticker(self):
        seen = definition.parse(
            [{'name': 'seen', 'every': 60, 'body': 1}], 3600)[0]
        metadata = {('q.1', 'p.1'): {'_schedules': [
            {'name': 'seen', 'every': 60, 'body': 1},
            {'name': 'new', 'cron': '0 2 * * *', 'timezone': 'Europe/Paris',
             'body': 2, 'catch_up': 'all'}]}}
        store = types.SimpleNamespace(
            afters=lambda queue, project: {ticks.key(seen): 150} if (
                queue, project) == ('q.1', 'p.1') else {},
            listed=lambda limit: [('q.1', 'p.1', 180), ('gone', None, 200)])

        def get_metadata(queue, project):
            if (queue, project) not in metadata:
                raise errors.QueueDoesNotExist(queue, project)
            return metadata[queue, project]

        return types.SimpleNamespace(
            store=store, max_ttl=3600,
            queues=types.SimpleNamespace(get_metadata=get_metadata))

    def test_every_queue_in_the_index(self):
        out = io.StringIO()
        self.assertEqual(2, listing.write(self.ticker(), out))
        seen, new = [json.loads(line)
                     for line in out.getvalue().splitlines()]
        self.assertEqual({'project': 'p.1', 'queue': 'q.1',
                          'schedule': 'seen', 'every': 60, 'cron': None,
                          'timezone': 'UTC', 'catch_up': 'none',
                          'last_tick': '1970-01-01T00:02:00Z',
                          'next_tick': '1970-01-01T00:03:00Z'}, seen)
        self.assertEqual(('new', None, None, 'Europe/Paris'), (
            new['schedule'], new['last_tick'], new['next_tick'],
            new['timezone']))

    def test_one_queue(self):
        out = io.StringIO()
        self.assertEqual(0, listing.write(self.ticker(), out, 'gone'))
        self.assertEqual('', out.getvalue())
