"""The runner: a dispatcher's two passes, in turn, until stopped.

A round runs the tick pass (``ticker.Ticker``: schedules' ticks posted
as messages), then the push pass (``dispatcher.Dispatcher``: due
pushes sent to subscribers), then sleeps until the earliest next push
or schedule look, ``[delay_push] poll_interval`` at most. It wakes
sooner when a delivery ends, when a post pokes it (``poke``, in a
zaqar-server) and when the store tells of an earlier push (redis).
Neither pass knows the other. ``zaqar-delay-dispatcher`` and the
in-server dispatcher (``start_in_server``) run one per store.
"""

import threading

from oslo_log import log as logging

from zaqar_delay.push import dispatcher
from zaqar_delay.push import ticker as schedule_ticker

LOG = logging.getLogger(__name__)

POKED_PAUSE = 0.05     # seconds between a poke and the pass after it


def earliest(*times):
    """The earliest of times that are not None, or None."""
    found = [time for time in times if time is not None]
    return min(found) if found else None


class Runner:
    """Runs ``pusher`` (a Dispatcher) and ``ticker`` (a Ticker, or None)
    in turn; sleeps on the pusher's ``wake`` event."""

    def __init__(self, pusher, ticker=None):
        self.pusher = pusher
        self.ticker = ticker
        self.wake = pusher.wake
        self._poked = False

    def run_once(self):
        """One tick pass, then one push pass; return how many pushes
        the push pass took."""
        if self.ticker is not None:
            self.ticker.run_once()
        return self.pusher.run_once()

    def drain(self, timeout):
        """``Dispatcher.drain``: the pushes still held after it."""
        return self.pusher.drain(timeout)

    def poke(self):
        """A message is being stored: pass now, and again a moment later
        (the post that pokes runs before the store's write)."""
        self._poked = True
        self.wake.set()

    def wait(self, taken=1):
        """Seconds to sleep before the next round. A push that came due
        after the last pass looked (``Dispatcher.looked``) is taken at
        once. One due already when it looked that it could not take
        (``taken`` 0: its lease is another's, Swift still shows an ended
        lease, or ``max_held`` are held) is looked at again in
        ``poll_interval``, not at once."""
        due = self.pusher.next_due()
        if self.ticker is not None:
            due = earliest(due, self.ticker.next_due())
        poll = self.pusher.poll_interval
        if due is None:
            return poll
        pause = due - self.pusher.clock()
        looked = self.pusher.looked
        if pause <= 0 and not taken and (looked is None or due <= looked):
            return poll
        return min(poll, max(0.0, pause))

    def run(self, stop):
        """Round after round until the ``stop`` event is set; then tell
        the store which pushes are done."""
        self.pusher.watch(stop)
        while not stop.is_set():
            self.wake.clear()
            try:
                taken = self.run_once()
                if taken >= self.pusher.batch_size:
                    continue    # more may be due already
                pause = self.wait(taken)
                if self._poked:
                    self._poked = False
                    pause = min(pause, POKED_PAUSE)
            except Exception:
                LOG.exception('push dispatcher pass failed')
                pause = self.pusher.poll_interval
            self.wake.wait(pause)
        self.pusher.flush()


def build(data_driver, queue_controller, conf):
    """The Runner of one delay data driver: its push pass and, when the
    driver keeps a schedule index, its tick pass."""
    return Runner(
        dispatcher.Dispatcher(data_driver, queue_controller, conf),
        schedule_ticker.for_dispatcher(data_driver, queue_controller, conf))


_in_server = {}
_in_server_lock = threading.Lock()


def start_in_server(data_driver, queue_controller, conf):
    """Start one runner thread for ``data_driver`` in this process;
    return its Runner."""
    with _in_server_lock:
        if id(data_driver) in _in_server:
            return _in_server[id(data_driver)]
        stop = threading.Event()
        runner = build(data_driver, queue_controller, conf)
        thread = threading.Thread(target=runner.run, args=(stop,),
                                  name='zaqar-delay-dispatcher', daemon=True)
        thread.start()
        _in_server[id(data_driver)] = runner
        return runner
