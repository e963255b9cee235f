"""Projects with dots in their ids keep apart on ``redis.delay``, with
its management store (``tests.common.project_pairs``)."""

from oslo_utils import timeutils

from tests.common import behaviour
from tests.common import project_pairs
from tests.fixtures import redis_store
from zaqar_delay.storage.redis import keys


class ProjectPairsTest(project_pairs.ProjectPairs,
                       redis_store.DelayTestBase):

    def test_gc_drops_a_dotted_projects_expired_claims(self):
        # Upstream's gc reads the project out of a key (ClaimController.
        # keyed_projects).
        behaviour.freeze_clock(self)
        (project, queue), _ = self.pair
        self.create(project, queue)
        self.post(project, queue, 'one')
        self.assertEqual(['one'], self.claimed(project, queue))
        claims = keys.claim(queue, project, 'x')[0]
        self.assertEqual(1, self.redis.zcard(claims))
        timeutils.advance_time_seconds(120)
        self.driver.gc()
        self.assertEqual(0, self.redis.zcard(claims))
