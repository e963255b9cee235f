"""CPU and memory of processes, read from /proc (Linux): what the
benchmarks report of the servers they start."""

import os
import time


def tree(pid):
    """A process and all its descendants."""
    children = {}
    for entry in os.listdir('/proc'):
        if not entry.isdigit():
            continue
        try:
            with open('/proc/%s/stat' % entry) as f:
                fields = f.read().rsplit(')', 1)[1].split()
            children.setdefault(int(fields[1]), []).append(int(entry))
        except OSError:
            continue
    found, todo = [], [pid]
    while todo:
        p = todo.pop()
        found.append(p)
        todo.extend(children.get(p, []))
    return found


def peak_rss(pid):
    """Resident kB of a process and all its descendants."""
    total = 0
    for p in tree(pid):
        try:
            with open('/proc/%d/status' % p) as f:
                for line in f:
                    if line.startswith('VmRSS:'):
                        total += int(line.split()[1])
        except OSError:
            pass
    return total


def cpu_seconds(pid):
    """CPU seconds (user and system) of a process and its descendants,
    those that ended and were waited for included."""
    total = 0
    for p in tree(pid):
        try:
            with open('/proc/%d/stat' % p) as f:
                fields = f.read().rsplit(')', 1)[1].split()
            total += sum(int(v) for v in fields[11:15])
        except OSError:
            pass
    return total / os.sysconf('SC_CLK_TCK')


class CPU:
    """CPU seconds of processes (with their descendants) and of this one,
    read from /proc (Linux): ``CPU({'swift proxy': pid, ...})``;
    ``start()``, then ``shares()`` gives {name: cores used since start},
    with ``this process`` (its own threads), ``machine`` (every
    process, of ``os.cpu_count()`` cores) and ``machine iowait`` (cores
    idle while a disk request was pending)."""

    def __init__(self, pids):
        self._pids = dict(pids)
        self._start = None

    def _seconds(self):
        totals = {name: cpu_seconds(pid) for name, pid in self._pids.items()}
        totals['this process'] = time.process_time()
        with open('/proc/stat') as f:
            ticks = [int(n) for n in f.readline().split()[1:]]
        # user nice system idle iowait irq softirq steal: all but idle
        # and iowait
        busy = sum(ticks[:8]) - ticks[3] - ticks[4]
        totals['machine'] = busy / os.sysconf('SC_CLK_TCK')
        totals['machine iowait'] = ticks[4] / os.sysconf('SC_CLK_TCK')
        return time.monotonic(), totals

    def start(self):
        self._start = self._seconds()

    def shares(self):
        (t0, before), (t1, after) = self._start, self._seconds()
        return {name: (after[name] - before[name]) / (t1 - t0)
                for name in after}
