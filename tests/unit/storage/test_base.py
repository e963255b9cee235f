from unittest import mock

import testtools
from zaqar.storage import errors

from zaqar_delay.storage import base


class _Clock:
    """A clock that moves on by ``step`` seconds at each reading."""

    def __init__(self, start, step):
        self.now, self.step = start, step

    def read(self, with_fraction=False):
        now = self.now
        self.now += self.step
        return now if with_fraction else int(now)


class _Claims:
    """A claim controller whose ``get`` counts ``age`` from the clock,
    the way the backends do: whole seconds, or a float."""

    def __init__(self, clock, made, whole=True):
        self.clock, self.made, self.whole = clock, made, whole

    def get(self, queue, claim_id, project=None):
        if claim_id == 'gone':
            raise errors.ClaimDoesNotExist(claim_id, queue, project)
        if self.whole:
            return {'age': self.clock.read() - int(self.made)}, []
        return {'age': self.clock.read(True) - self.made}, []


class _Export(base.Export):

    def records(self, queue, project, batch):
        return []


class ClaimedAtTest(testtools.TestCase):
    """``base.Export.claimed_at``, from a claim's age."""

    def claimed_at(self, clock, claims):
        data = mock.Mock(claim_controller=claims)
        with mock.patch.object(base.timeutils, 'utcnow_ts', clock.read):
            return _Export(data).claimed_at('q', 'p', 'c1')

    def test_a_get_across_a_second_boundary_is_not_early(self):
        # The claim was made in second 110 (its due second). The export
        # reads its clock at 115.999 and the backend at 116.002: counted
        # from the first reading the claim would seem made at 109.999.
        clock = _Clock(115.999, 0.003)
        self.assertEqual(110, self.claimed_at(clock, _Claims(clock, 110.4)))

    def test_whole_seconds_give_the_claims_second(self):
        clock = _Clock(115.2, 0.003)
        self.assertEqual(110, self.claimed_at(clock, _Claims(clock, 110.4)))

    def test_float_ages_are_never_earlier_than_the_claim(self):
        clock = _Clock(115.2, 0.03)     # 30 ms a request
        at = self.claimed_at(clock, _Claims(clock, 110.4, whole=False))
        self.assertGreaterEqual(at, 110.4)
        self.assertLess(at, 110.5)

    def test_a_claim_gone_has_no_time(self):
        data = mock.Mock(claim_controller=_Claims(_Clock(1, 0), 0))
        self.assertIsNone(_Export(data).claimed_at('q', 'p', 'gone'))
