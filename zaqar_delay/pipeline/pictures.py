"""The audit's pictures: messages coming due, lateness of claims, and
the true lateness of deliveries over time (from an exported history).

The data behind each picture is worked out apart from its drawing
(``due_series``, ``lateness_series``), so that it can be checked.

Messages coming due are counted per bucket and drawn as steps, every
bucket of the horizon asked drawn, empty ones at zero. The bucket grows
with the horizon (``bucket_minutes``) and the title says it. The queues
with the most coming due are drawn on their own, the rest as "other".
"""

import collections
import datetime
import math

from zaqar_delay.pipeline.transforms import audit as transform

LINES = 8       # queues drawn on their own; the rest as "other"
OTHER = 'other'
# (horizon up to, in hours; bucket, in minutes); longer: a day.
BUCKETS = ((2, 1), (12, 5), (48, 15), (24 * 7, 60))
DAY = 24 * 60

# The data of the due picture: the bucket width (minutes), the bucket
# start times (UNIX seconds, one more than there are buckets: the last
# is the end), counts per bucket of all queues, and [(label, counts)] of
# the queues drawn, the largest first, "other" last.
Due = collections.namedtuple('Due', 'minutes edges total queues')

# The data of the lateness picture: upper edges of the bins (seconds;
# the last is open), and [(label, claims timed, cumulative share of
# them per bin)] of the queues drawn.
Lateness = collections.namedtuple('Lateness', 'edges queues')

# The widths (seconds) of the lateness-over-time buckets, and the most
# buckets drawn: the narrowest width that covers the span in that many.
WIDTHS = (1, 10, 60, 300, 900, 3600, 6 * 3600, 86400)
MOST_BUCKETS = 240

# The data of the lateness-over-time picture: the bucket width
# (seconds); ``every``: [(start, deliveries, p50, p90, p99, max)] of all
# queues together, by start; ``queues``: [(label, [(start, p99)])] of the
# queues drawn, those with the most deliveries first.
Timeline = collections.namedtuple('Timeline', 'width every queues')


def bucket_minutes(hours):
    """The bucket width for a horizon of ``hours``: 1, 5, 15 or 60
    minutes from 1 hour to 7 days, a day beyond."""
    for most, minutes in BUCKETS:
        if hours <= most:
            return minutes
    return DAY


def seconds(when):
    """UNIX seconds of a forecast minute: a number, or the datetime
    Spark gives for a timestamp (naive, in local time)."""
    if isinstance(when, datetime.datetime):
        return when.timestamp()
    return float(when)


def label(project, queue):
    return '%s/%s' % (project or '-', queue)


def _ranked(counts, lines):
    """[(label, values)] of the ``lines`` largest, then "other" (the sum
    of the rest, element-wise) if any is left."""
    ranked = sorted(counts, key=lambda k: (-sum(counts[k]), k))
    shown = [(k, counts[k]) for k in ranked[:lines]]
    rest = ranked[lines:]
    if rest:
        columns = zip(*(counts[k] for k in rest))
        shown.append((OTHER, [sum(column) for column in columns]))
    return shown


def due_series(rows, now, hours, lines=LINES):
    """The Due data of forecast ``rows`` (project, queue, minute, due)
    over ``hours`` after ``now``."""
    minutes = bucket_minutes(hours)
    width = minutes * 60
    first = math.floor(now / width) * width
    count = math.floor((now + hours * 3600 - first) / width) + 1
    total = [0] * count
    counts = {}
    for project, queue, minute, due in rows:
        i = int((seconds(minute) - first) // width)
        if not 0 <= i < count:
            continue    # outside the horizon (a --now other than the data's)
        total[i] += due
        counts.setdefault(label(project, queue), [0] * count)[i] += due
    edges = [first + i * width for i in range(count + 1)]
    return Due(minutes, edges, total, _ranked(counts, lines))


def lateness_series(rows, lines=LINES):
    """The Lateness data of lateness histogram ``rows`` (project, queue,
    bin, claims), ``bin`` an index into ``transform.LATENESS_EDGES``."""
    edges = transform.LATENESS_EDGES
    counts = {}
    for project, queue, i, claims in rows:
        counts.setdefault(label(project, queue), [0] * len(edges))[i] += \
            claims
    drawn = []
    for name, binned in _ranked(counts, lines):
        timed, running, shares = sum(binned), 0, []
        for claims in binned:
            running += claims
            shares.append(running / timed)
        drawn.append((name, timed, shares))
    return Lateness(edges[1:] + (math.inf,), drawn)


def timeline_width(first, last):
    """The bucket width (one of ``WIDTHS``) for deliveries from
    ``first`` to ``last`` (UNIX seconds)."""
    span = max(0.0, last - first)
    for width in WIDTHS:
        if span / width <= MOST_BUCKETS:
            return width
    return WIDTHS[-1]


def timeline_series(every, queue_rows, width, lines=LINES):
    """The Timeline data of ``every`` (start, deliveries, p50, p90, p99,
    max; all queues) and ``queue_rows`` (project, queue, start,
    deliveries, p99)."""
    counts, points = {}, {}
    for project, queue, start, deliveries, p99 in queue_rows:
        name = label(project, queue)
        counts[name] = counts.get(name, 0) + deliveries
        points.setdefault(name, []).append((start, p99))
    ranked = sorted(counts, key=lambda k: (-counts[k], k))[:lines]
    return Timeline(width, sorted(tuple(r) for r in every),
                    [(name, sorted(points[name])) for name in ranked])


def _pyplot():
    import matplotlib
    matplotlib.use('Agg')
    from matplotlib import pyplot
    return pyplot


def _when(ts):
    return datetime.datetime.fromtimestamp(ts, datetime.timezone.utc)


def _width(minutes):
    if minutes >= DAY:
        return '1 day'
    if minutes >= 60:
        return '%d hour%s' % (minutes // 60, 's' if minutes > 60 else '')
    return '%d minute%s' % (minutes, 's' if minutes > 1 else '')


def draw_due(data, path, hours):
    """A PNG of ``data`` (Due): all queues above, the queues drawn below."""
    pyplot = _pyplot()
    from matplotlib import dates
    edges = [dates.date2num(_when(ts)) for ts in data.edges]
    fig, (top, bottom) = pyplot.subplots(2, 1, figsize=(10, 6.5),
                                         sharex=True)
    top.stairs(data.total, edges, fill=True, alpha=0.6,
               label='all queues (%d)' % sum(data.total))
    top.set_title('Messages coming due per %s, next %g hours'
                  % (_width(data.minutes), hours))
    for name, counts in data.queues:
        bottom.stairs(counts, edges, linewidth=1.2,
                      label='%s (%d)' % (name, sum(counts)))
    bottom.set_title('Per queue: the %d with the most coming due%s'
                     % (sum(1 for n, _ in data.queues if n != OTHER),
                        ', the rest as "other"' if any(
                            n == OTHER for n, _ in data.queues) else ''),
                     fontsize='medium')
    bottom.set_xlabel('time (UTC)')
    bottom.xaxis.set_major_locator(dates.AutoDateLocator(
        tz=datetime.timezone.utc))
    bottom.xaxis.set_major_formatter(dates.DateFormatter(
        '%H:%M' if hours <= 24 else '%m-%d %H:%M', tz=datetime.timezone.utc))
    for ax in (top, bottom):
        ax.set_ylabel('messages due')
        ax.set_xlim(edges[0], edges[-1])
        ax.set_ylim(bottom=0)
        if ax.patches or ax.lines:
            ax.legend(loc='upper right', fontsize='small')
    fig.autofmt_xdate()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    pyplot.close(fig)


def draw_lateness(data, path):
    """A PNG of ``data`` (Lateness): the share of each queue's timed
    claims made within a lateness, as steps over the bins."""
    pyplot = _pyplot()
    fig, ax = pyplot.subplots(figsize=(10, 4.5))
    ticks = list(range(len(data.edges)))
    for name, timed, shares in data.queues:
        ax.step(ticks, shares, where='post', marker='o', markersize=3,
                label='%s (%d claims)' % (name, timed))
    ax.set_xticks(ticks)
    ax.set_xticklabels(['< %gs' % e if e != math.inf else 'more'
                        for e in data.edges], fontsize='small')
    ax.set_ylim(0, 1.02)
    ax.set_xlabel('claimed within (seconds after due)')
    ax.set_ylabel('share of timed claims')
    ax.set_title('Lateness of claims per queue (cumulative)')
    ax.grid(alpha=0.3)
    ax.legend(loc='lower right', fontsize='small')
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    pyplot.close(fig)


def _grid(points, width):
    """(bucket edges, [values]) of [(start, value...)] over every bucket
    from the first start to the last, NaN where a bucket is empty (not
    drawn: an empty bucket is no delivery, not a lateness)."""
    first, last = points[0][0], points[-1][0]
    count = int(round((last - first) / width)) + 1
    edges = [first + i * width for i in range(count + 1)]
    values = [[math.nan] * count for _ in points[0][1:]]
    for start, *found in points:
        i = int(round((start - first) / width))
        for column, value in zip(values, found):
            column[i] = math.nan if value is None else value
    return edges, values


def draw_timeline(data, path):
    """A PNG of ``data`` (Timeline): lateness of all deliveries per
    bucket above (p50, p90, p99 and max), each drawn queue's p99 below;
    empty buckets left blank."""
    pyplot = _pyplot()
    from matplotlib import dates
    fig, (top, bottom) = pyplot.subplots(2, 1, figsize=(10, 6.5),
                                         sharex=True)

    def days(edges):
        return [dates.date2num(_when(start)) for start in edges]

    edges, values = _grid([r[:1] + r[2:] for r in data.every], data.width)
    for column, name, style in zip(values, ('p50', 'p90', 'p99', 'max'),
                                   ('-', '-', '-', ':')):
        top.stairs(column, days(edges), baseline=None, linestyle=style,
                   label=name)
    top.set_title('Lateness of deliveries (first claim or push) per %s, '
                  'all queues (%d)' % (_seconds_text(data.width),
                                       sum(r[1] for r in data.every)))
    for name, points in data.queues:
        edges, (column,) = _grid(points, data.width)
        bottom.stairs(column, days(edges), baseline=None, linewidth=1.2,
                      label=name)
    bottom.set_title('p99 per queue: the %d with the most deliveries'
                     % len(data.queues), fontsize='medium')
    bottom.set_xlabel('delivered at (UTC)')
    bottom.xaxis.set_major_locator(dates.AutoDateLocator(
        tz=datetime.timezone.utc))
    bottom.xaxis.set_major_formatter(dates.DateFormatter(
        '%m-%d %H:%M' if data.width >= 60 else '%H:%M:%S',
        tz=datetime.timezone.utc))
    for ax in (top, bottom):
        ax.set_ylabel('seconds after due')
        ax.axhline(0, color='black', linewidth=0.6)
        ax.grid(alpha=0.3)
        if ax.patches:
            ax.legend(loc='upper left', fontsize='small')
    fig.autofmt_xdate()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    pyplot.close(fig)


def _seconds_text(width):
    if width >= 3600:
        return _width(width // 60)
    if width >= 60:
        return '%d minute%s' % (width // 60, 's' if width > 60 else '')
    return '%d second%s' % (width, 's' if width > 1 else '')
