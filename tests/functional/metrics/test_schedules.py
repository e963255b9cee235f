"""Schedule tick counters of ``zaqar-delay-dispatcher --metrics-port``,
scraped over HTTP, across an outage of the dispatchers (tox -e slow:
each test runs about 30 s)."""

import subprocess
import time

import testtools

from tests.common import metrics
from tests.common import schedules
from zaqar_delay.dev import ports

OUTAGE = 8      # seconds without a dispatcher: above LATE (5) + EVERY (2)


class TickMetrics(schedules.ScheduleBase):

    def serve(self):
        """A dispatcher serving metrics: (process, port) once it
        answers."""
        port = ports.free_port()
        proc = subprocess.Popen(
            [schedules._bin('zaqar-delay-dispatcher'), '--config-file',
             self.stack.conf, '--metrics-port', str(port)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.addCleanup(lambda: proc.poll() is None and proc.kill())
        deadline = time.monotonic() + metrics.SCRAPE_WAIT
        while time.monotonic() < deadline:
            self.assertIsNone(proc.poll(), 'the dispatcher exited')
            try:
                metrics.scrape(port)
                return proc, port
            except Exception:
                time.sleep(0.2)
        self.fail('the dispatcher did not serve metrics')

    def test_ticks_posted_and_missed_after_an_outage(self):
        self.define({'name': 'm', 'every': schedules.EVERY, 'body': 1})
        first = self.dispatchers(1)
        self.wait_for_tick(0)
        self.stop(first)
        before = self.ticks()
        time.sleep(OUTAGE)
        proc, port = self.serve()
        restarted = int(time.time())
        self.wait_for_tick(self.wait_for_tick(restarted)[-1] + 1)
        # No more ticks: what the dispatcher counted is settled once its
        # count of posts matches the ticks stored after ``before``.
        self.queue.metadata(new_meta={})

        def posted(samples):
            return metrics.labelled(
                samples, 'zaqar_delay_schedule_ticks_posted_total')

        deadline = time.monotonic() + metrics.SCRAPE_WAIT
        while True:
            after = [tick for tick in self.ticks() if tick > before[-1]]
            samples = metrics.scrape(port)
            if posted(samples) == len(after):
                break
            self.assertLess(time.monotonic(), deadline,
                            (posted(samples), after))
            time.sleep(0.5)
        self.stop([proc])

        def value(name):
            return metrics.labelled(samples, 'zaqar_delay_' + name)

        self.assertGreaterEqual(len(after), 2)
        self.assertEqual(len(after),
                         value('schedule_tick_lateness_seconds_count'))
        # Every tick from the last one before the outage to the last
        # one after it was posted or counted as missed; those of the
        # outage older than LATE were missed (catch_up none).
        ticks_between = (after[-1] - before[-1]) // schedules.EVERY
        missed = value('schedule_ticks_missed_total')
        self.assertEqual(ticks_between - len(after), missed)
        self.assertGreaterEqual(missed, 1)


class RedisTickMetricsTest(TickMetrics, testtools.TestCase):
    store = 'redis.delay'


class MongoTickMetricsTest(TickMetrics, testtools.TestCase):
    store = 'mongodb.delay'
