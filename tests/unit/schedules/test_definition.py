"""``_schedules`` metadata: what is accepted, and what each refusal says."""

import testtools

from zaqar_delay import errors
from zaqar_delay.schedules import definition

MAX_TTL = 1209600


def _one(**fields):
    schedule = {'name': 'nightly', 'every': 60, 'body': {'job': 1}}
    schedule.update(fields)
    return schedule


class DefinitionTest(testtools.TestCase):

    def refused(self, value, *words):
        exc = self.assertRaises(errors.Refused, definition.parse, value,
                                MAX_TTL)
        for word in words:
            self.assertIn(word, str(exc))
        return exc

    def test_defaults(self):
        (found,) = definition.parse([_one()], MAX_TTL)
        self.assertEqual(('nightly', None, 60, 'UTC', {'job': 1}, 3600,
                          'none', 100),
                         found._replace(zone=str(found.zone)))

    def test_cron_with_a_time_zone(self):
        (found,) = definition.parse([{
            'name': 'n.1', 'cron': '0 2 * * MON-FRI',
            'timezone': 'Europe/Paris', 'body': 'text', 'ttl': 600,
            'catch_up': 'all', 'max_catch_up': 5}], MAX_TTL)
        self.assertEqual('0 2 * * MON-FRI', found.cron)
        self.assertIsNone(found.every)
        self.assertEqual('Europe/Paris', str(found.zone))
        self.assertEqual(('all', 5, 600), (found.catch_up, found.max_catch_up,
                                           found.ttl))

    def test_bad_cron(self):
        self.refused([{'name': 'a', 'cron': '61 * * * *', 'body': 1}],
                     "schedule 'a'", 'bad cron expression', '61 * * * *')
        self.refused([{'name': 'a', 'cron': '* * * *', 'body': 1}],
                     'five-field')
        self.refused([{'name': 'a', 'cron': '0 0 * * * *', 'body': 1}],
                     'five-field')
        self.refused([{'name': 'a', 'cron': 5, 'body': 1}], 'five-field')

    def test_unknown_time_zone(self):
        self.refused([_one(timezone='Mars/Olympus')], 'unknown timezone',
                     'Mars/Olympus')
        self.refused([_one(timezone='../etc/passwd')], 'unknown timezone')
        self.refused([_one(timezone=3)], 'IANA')

    def test_every_below_one(self):
        for every in (0, -5, 1.5, True, '60'):
            self.refused([_one(every=every)], 'every must be a whole number')

    def test_cron_xor_every(self):
        self.refused([_one(cron='* * * * *')], 'either "cron" or "every"')
        self.refused([{'name': 'a', 'body': 1}], 'either "cron" or "every"')

    def test_body_too_large_or_missing(self):
        self.refused([_one(body='x' * definition.MAX_BODY)], 'body is',
                     'at most %d' % definition.MAX_BODY)
        self.refused([_one(body=None)], 'body is missing')

    def test_too_many_schedules(self):
        many = [_one(name='s%d' % i) for i in range(
            definition.MAX_PER_QUEUE + 1)]
        self.refused(many, 'at most %d' % definition.MAX_PER_QUEUE)
        self.assertEqual(definition.MAX_PER_QUEUE, len(definition.parse(
            many[1:], MAX_TTL)))

    def test_names(self):
        self.refused([_one(), _one()], "two schedules are named 'nightly'")
        self.refused([_one(name='a/b')], 'name must be')
        self.refused([_one(name='')], 'name must be')
        self.refused(['x'], 'must be an object')
        self.refused({'name': 'a'}, 'must be a list')

    def test_other_fields(self):
        self.refused([_one(ttl=59)], 'ttl must be')
        self.refused([_one(ttl=MAX_TTL + 1)], 'ttl must be')
        self.refused([_one(catch_up='some')], 'catch_up must be one of')
        self.refused([_one(max_catch_up=0)], 'max_catch_up')
        self.refused([_one(max_catch_up=definition.MAX_CATCH_UP + 1)],
                     'max_catch_up')
        self.refused([_one(color='red')], 'unknown fields: color')

    def test_of_queue_reads_a_refused_value_as_none(self):
        self.assertEqual([], definition.of_queue({}, MAX_TTL))
        self.assertEqual([], definition.of_queue(None, MAX_TTL))
        self.assertEqual([], definition.of_queue(
            {'_schedules': [_one(every=0)]}, MAX_TTL))
        self.assertEqual(1, len(definition.of_queue(
            {'_schedules': [_one()]}, MAX_TTL)))

    def test_of_queue_parses_each_value_once(self):
        value = [_one(ttl=600)]
        first = definition.of_queue({'_schedules': value}, MAX_TTL)
        self.assertEqual(first, definition.of_queue(
            {'_schedules': [_one(ttl=600)]}, MAX_TTL))
        # Values that compare equal but parse differently are kept apart.
        self.assertEqual([], definition.of_queue(
            {'_schedules': [_one(ttl=600.0)]}, MAX_TTL))
        self.assertEqual([], definition.of_queue(
            {'_schedules': [_one(every=True)]}, MAX_TTL))
        self.assertEqual([], definition.of_queue(
            {'_schedules': value}, 300))
        (changed,) = definition.of_queue(
            {'_schedules': [_one(ttl=900)]}, MAX_TTL)
        self.assertEqual(900, changed.ttl)

    def test_check_only_looks_at_schedules(self):
        definition.check({'other': 1}, MAX_TTL)
        self.assertRaises(errors.Refused, definition.check,
                          {'_schedules': 'x'}, MAX_TTL)
