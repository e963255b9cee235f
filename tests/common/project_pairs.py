"""Two projects whose names differ only in where a dot falls never share
a queue: project ``a.b``'s queue ``c`` and project ``a``'s queue
``b.c``, and project ``a.b`` against project ``a``'s queue
``b.queues_set`` (upstream's redis names both ``a.b.c`` and
``a.b.queues_set``). Mixed into each store's DelayTestBase
(``self.driver``, ``self.queues``): invariants 5 and 6. ``a`` is a new
name in each test, stores that keep data between tests being many.
"""

import uuid

from tests.common import behaviour


class ProjectPairs:

    def setUp(self):
        super().setUp()
        a = 'a' + uuid.uuid4().hex[:8]
        self.pair = ((a + '.b', 'c'), (a, 'b.c'))
        # Project ``a.b``'s queue set is named as project ``a``'s queue
        # ``b.queues_set`` on upstream's redis.
        self.set_pair = ((a + '.b', 'c'), (a, 'b.queues_set'))

    def create(self, project, queue, **metadata):
        self.queues.create(queue, metadata=dict(metadata, owner=project),
                           project=project)

    def post(self, project, queue, *bodies):
        return self.driver.message_controller.post(
            queue, [{'ttl': 600, 'body': body} for body in bodies],
            behaviour.CLIENT, project=project)

    def listed(self, project, queue):
        page = next(self.driver.message_controller.list(
            queue, project=project, echo=True, include_claimed=True,
            client_uuid=behaviour.OTHER_CLIENT))
        return sorted(m['body'] for m in page)

    def total(self, project, queue):
        return self.queues.stats(queue, project=project)['messages']['total']

    def names(self, project):
        return [q['name'] for q in next(self.queues.list(project=project))]

    def claimed(self, project, queue):
        _, messages = self.driver.claim_controller.create(
            queue, {'ttl': 60, 'grace': 60}, project=project)
        return sorted(m['body'] for m in messages)

    def check_apart(self, pair):
        (p1, q1), (p2, q2) = pair
        for project, queue in pair:
            self.create(project, queue)
        self.post(p1, q1, 'one', 'two')
        self.assertEqual([], self.listed(p2, q2))
        self.assertEqual(0, self.total(p2, q2))
        self.assertEqual([q1], self.names(p1))
        self.assertEqual([q2], self.names(p2))
        for project, queue in pair:
            self.assertEqual({'owner': project},
                             self.queues.get_metadata(queue, project=project))
        self.assertEqual([], self.claimed(p2, q2))
        self.assertEqual(['one', 'two'], self.listed(p1, q1))
        self.assertEqual(2, self.total(p1, q1))
        self.assertEqual(['one', 'two'], self.claimed(p1, q1))

        # Deletes of one leave the other.
        self.post(p2, q2, 'three')
        (mid,) = [m['id'] for m in next(self.driver.message_controller.list(
            q2, project=p2, echo=True))]
        self.driver.message_controller.delete(q2, mid, project=p2)
        self.assertEqual(['one', 'two'], self.listed(p1, q1))
        self.post(p2, q2, 'four')
        self.queues.delete(q2, project=p2)
        self.assertEqual(['one', 'two'], self.listed(p1, q1))
        self.assertEqual(2, self.total(p1, q1))
        self.assertEqual([q1], self.names(p1))
        self.assertEqual([], self.names(p2))
        self.assertEqual({'owner': p1},
                         self.queues.get_metadata(q1, project=p1))

    def test_a_dotted_project_and_its_prefix_keep_apart(self):
        self.check_apart(self.pair)

    def test_the_prefix_first_keeps_apart_too(self):
        self.check_apart(self.pair[::-1])

    def test_a_dotted_projects_queue_set_is_no_queue_of_its_prefix(self):
        self.check_apart(self.set_pair)

    def test_a_queue_named_as_a_queue_set_is_apart_too(self):
        self.check_apart(self.set_pair[::-1])

    def test_metrics_and_history_name_each_project(self):
        for project, queue in self.pair:
            self.create(project, queue, _history_ttl=3600)
        self.post(*self.pair[0], 'one')
        self.post(*self.pair[1], 'two', 'three')
        reader = self.driver.metrics_class(self.driver)
        named = [(p, q) for p, q in reader.queues(self.control, {})
                 if p in dict(self.pair)]
        self.assertEqual(sorted(self.pair), sorted(named))
        found = reader.read(list(self.pair), self.driver.now())
        self.assertEqual([1, 2], [found[pair].ready for pair in self.pair])
        kept = self.driver.history_class(self.driver)
        self.assertEqual([1, 2], [len(kept.events(q, p))
                                  for p, q in self.pair])
