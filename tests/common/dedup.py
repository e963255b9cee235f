"""Deduplication keys (``_dedup_key``, ``_dedup_window``) every
``*.delay`` driver must have.

Mixed in like ``behaviour.DelayBehaviour``; the clock is Zaqar's,
overridden.
"""

import threading

from oslo_utils import timeutils

from tests.common import behaviour
from zaqar_delay import errors as delay_errors

PROJECT = behaviour.PROJECT


class Keyed(behaviour.Helpers):
    """A queue with ``_dedup_key``, and posts into it."""

    def setUp(self):
        super().setUp()
        self.keyed(self.queue)

    def keyed(self, queue, project=PROJECT, **extra):
        self.queues.create(queue, project=project)
        self.queues.set_metadata(queue, dict({'_dedup_key': 'job'}, **extra),
                                 project=project)

    def send(self, *jobs, queue=None, project=PROJECT, ttl=3600):
        return self.messages.post(
            queue or self.queue,
            [{'ttl': ttl, 'body': {'job': job, 'n': i}}
             for i, job in enumerate(jobs)], behaviour.CLIENT,
            project=project)

    def total(self, queue=None, project=PROJECT):
        return self.stats_of(queue or self.queue, project)['total']


class DedupRace(Keyed):
    """Posts racing with the same values."""

    def test_racing_posts_store_one_message_per_key(self):
        answers, errors, undecided = [], [], []

        def post(jobs):
            # A store may answer "undecided" (a 503, nothing stored for
            # that message): the client posts again, as it would.
            for _ in range(self.race_retries):
                try:
                    return self.send(*jobs)
                except delay_errors.DedupUndecided:
                    undecided.append(jobs)
            return self.send(*jobs)

        def poster(start):
            try:
                for i in range(start, start + self.race_posts, 10):
                    answers.extend(post(['k%d' % ((i + j) % self.race_keys)
                                         for j in range(10)]))
            except Exception as exc:    # reported below
                errors.append(exc)

        threads = [threading.Thread(target=poster, args=(n,))
                   for n in range(0, 4 * self.race_posts, self.race_posts)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        self.assertEqual([], errors)
        self.assertEqual(4 * self.race_posts, len(answers))
        self.assertEqual(self.race_keys, len(set(answers)))
        self.assertEqual(self.race_keys, self.total())
        if undecided:
            print('%d posts answered undecided, then posted again'
                  % len(undecided))

    race_posts = 250     # messages each of 4 threads posts
    race_keys = 100      # values they post (two threads race on each)
    race_retries = 0     # posts again of a post answered undecided


class DedupBehaviour(DedupRace):

    def test_a_post_sent_twice_stores_one_message_and_answers_its_id(self):
        first = self.send('a', 'b')
        self.assertEqual(first, self.send('a', 'b'))
        self.assertEqual(2, self.total())

    def test_the_same_value_twice_in_one_post_is_one_message(self):
        a, b, again = self.send('a', 'b', 'a')
        self.assertEqual(a, again)
        self.assertNotEqual(a, b)
        self.assertEqual(2, self.total())

    def test_a_body_without_the_field_is_never_deduplicated(self):
        msgs = [{'ttl': 60, 'body': {'other': 1}}, {'ttl': 60, 'body': 'x'}]
        for _ in range(2):
            self.messages.post(self.queue, msgs, behaviour.CLIENT,
                               project=PROJECT)
        self.assertEqual(4, self.total())

    def test_values_compare_as_json(self):
        self.messages.post(self.queue, [{'ttl': 60, 'body': {'job': 1}}],
                           behaviour.CLIENT, project=PROJECT)
        self.messages.post(self.queue, [{'ttl': 60, 'body': {'job': '1'}}],
                           behaviour.CLIENT, project=PROJECT)
        self.assertEqual(2, self.total())

    def test_queues_and_projects_are_independent(self):
        other = self.queue + '-b'
        self.keyed(other)
        self.keyed(self.queue, project='p2')
        ids = {self.send('a')[0], self.send('a', queue=other)[0],
               self.send('a', project='p2')[0]}
        self.assertEqual(3, len(ids))

    def test_a_key_is_free_again_once_its_message_is_deleted(self):
        (mid,) = self.send('a')
        self.messages.delete(self.queue, mid, project=PROJECT)
        (again,) = self.send('a')
        self.assertNotEqual(mid, again)
        self.assertEqual(1, self.total())

    def test_a_key_is_free_again_after_the_window(self):
        self.queues.set_metadata(self.queue, {'_dedup_key': 'job',
                                              '_dedup_window': 60},
                                 project=PROJECT)
        (mid,) = self.send('a')
        timeutils.advance_time_seconds(59)
        self.assertEqual([mid], self.send('a'))
        timeutils.advance_time_seconds(2)
        self.assertNotEqual([mid], self.send('a'))
        self.assertEqual(2, self.total())
