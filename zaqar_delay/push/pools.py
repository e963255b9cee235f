"""Runners for the pools of a pooled deployment.

Each pool is a message store of its own, with its own pending pushes:
each pool whose driver keeps them gets a runner (``runner``). The pool list is
read again every ``REFRESH`` seconds, so a pool added later is served;
in a zaqar-server, a post wakes that reading (at most once a second),
so a new pool's first delayed message is pushed in time.
"""

import threading

from oslo_log import log as logging
from zaqar.storage import utils as storage_utils

from zaqar_delay.push import runner

LOG = logging.getLogger(__name__)

REFRESH = 30    # seconds between two readings of the pool list


def names(control):
    """The names of the deployment's pools (management store)."""
    return [pool['name'] for pool in next(
        control.pools_controller.list(limit=0))]


class PoolDispatchers:
    """A Runner per pool that keeps pending pushes.

    A pool whose driver fails to load is logged and tried again at the
    next reading, the others served; a pool whose URI changed gets a new
    dispatcher, and the old one stops (its taken pushes are taken again
    when their lease ends, if it was the same store).
    """

    def __init__(self, conf, control):
        self.conf = conf
        self.control = control
        self.dispatchers = {}   # pool name -> Runner, or None
        self.uris = {}          # pool name -> the URI it was built for
        self.wake = threading.Event()

    def poke(self):
        """Read the pool list again soon (a post may be to a new pool)."""
        self.wake.set()

    def refresh(self):
        """Build the runners of pools not seen yet, or re-pointed;
        return them (each with a ``stop`` event of its own)."""
        fresh = []
        for name in names(self.control):
            try:
                found = self._build(name)
            except Exception:
                LOG.exception('pool %s: its driver did not load; trying '
                              'again at the next reading', name)
                continue
            if found is not None:
                fresh.append(found)
        return fresh

    def _build(self, name):
        pool = self.control.pools_controller.get(name, detailed=True)
        if self.uris.get(name) == pool['uri']:
            return None
        old = self.dispatchers.get(name)
        conf = storage_utils.dynamic_conf(pool['uri'],
                                          dict(pool['options']),
                                          conf=self.conf)
        data = storage_utils.load_storage_driver(
            conf, self.control.cache, control_driver=self.control)
        found = None
        if getattr(data, 'pushes', False):
            found = runner.build(data, self.control.queue_controller, conf)
            found.stop = threading.Event()
            LOG.info('pool %s: pushing its pending pushes', name)
        else:
            LOG.info('pool %s keeps no pending pushes', name)
        if old is not None:
            LOG.info('pool %s points to another store now', name)
            old.stop.set()
        self.dispatchers[name] = found
        self.uris[name] = pool['uri']
        return found

    def run_once(self):
        self.refresh()
        return sum(found.run_once() for found in self.dispatchers.values()
                   if found is not None)

    def drain(self, timeout):
        """``Runner.drain`` of each pool's; the pushes still held."""
        return sum(found.drain(timeout) for found in self.dispatchers.values()
                   if found is not None)

    def run(self, stop):
        """A thread per pool's runner until ``stop`` is set."""
        threads = []
        while not stop.is_set():
            self.wake.clear()   # a poke from now on is seen below
            try:
                for found in self.refresh():
                    thread = threading.Thread(target=found.run,
                                              args=(found.stop,),
                                              daemon=True)
                    thread.start()
                    threads.append(thread)
            except Exception:
                LOG.exception('reading the pool list failed')
            stop.wait(1)
            for _ in range(REFRESH):
                if stop.is_set() or self.wake.wait(1):
                    break
        for found in self.dispatchers.values():
            if found is not None:
                found.stop.set()
        for thread in threads:
            thread.join()


_in_server = []
_in_server_lock = threading.Lock()


def start_in_server(control):
    """Start the pools' dispatchers in a thread of this process, once;
    return their PoolDispatchers."""
    with _in_server_lock:
        if _in_server:
            return _in_server[0]
        stop = threading.Event()
        dispatchers = PoolDispatchers(control.conf, control)
        thread = threading.Thread(target=dispatchers.run, args=(stop,),
                                  name='zaqar-delay-pool-dispatchers',
                                  daemon=True)
        thread.start()
        _in_server.append(dispatchers)
        return dispatchers
