"""The audit's human outputs: a short summary and a forecast plot."""

import datetime

LINES = 8   # queues drawn on their own in the plot; the rest as "other"


def _time(ts):
    return datetime.datetime.fromtimestamp(
        ts, datetime.timezone.utc).strftime('%Y-%m-%d %H:%M:%S UTC')


def summary(queues, now, hours, forecast_total, out):
    """Write the summary of collected per-queue rows."""
    total = {k: sum(q[k] or 0 for q in queues) for k in (
        'messages', 'delayed', 'claimed', 'never_deliverable',
        'early_claims')}
    out.write('delay audit of a snapshot taken %s\n' % _time(now))
    out.write('%(messages)d messages in ' % total + '%d queues: %d delayed, '
              '%d claimed\n' % (len(queues), total['delayed'],
                                total['claimed']))
    out.write('coming due in the next %g hours: %d\n' % (
        hours, forecast_total))
    out.write('never deliverable (ttl ends before the delay): %d\n'
              % total['never_deliverable'])
    out.write('claimed before due: %d\n' % total['early_claims'])
    out.write('\n%-28s %9s %9s %8s %7s %6s %9s %9s %9s\n' % (
        'project/queue', 'messages', 'delayed', 'claimed', 'never', 'early',
        'late p50', 'late p90', 'late p99'))
    for q in queues:
        late = ['%9s' % ('-' if q[k] is None else '%.1fs' % q[k])
                for k in ('lateness_p50', 'lateness_p90', 'lateness_p99')]
        out.write('%-28s %9d %9d %8d %7d %6d %s\n' % (
            '%s/%s' % (q['project'] or '-', q['queue']), q['messages'],
            q['delayed'], q['claimed'], q['never_deliverable'],
            q['early_claims'], ' '.join(late)))


def plot(rows, path, hours):
    """A PNG of messages coming due per minute: all queues together
    above, the largest queues on their own below. ``rows`` are
    (project, queue, minute, due)."""
    import matplotlib
    matplotlib.use('Agg')
    from matplotlib import pyplot

    series, total = {}, {}
    for project, queue, minute, due in rows:
        points = series.setdefault('%s/%s' % (project or '-', queue), {})
        points[minute] = points.get(minute, 0) + due
        total[minute] = total.get(minute, 0) + due
    ranked = sorted(series, key=lambda k: -sum(series[k].values()))
    fig, (top, bottom) = pyplot.subplots(2, 1, figsize=(10, 6.5),
                                         sharex=True)
    _line(top, total, 'all %d queues' % len(series), linewidth=1.2)
    top.set_title('Messages coming due per minute, next %g hours' % hours)
    for label in ranked[:LINES]:
        _line(bottom, series[label], label, linewidth=0.8)
    bottom.set_title('The %d queues with the most coming due'
                     % min(LINES, len(ranked)), fontsize='medium')
    bottom.set_xlabel('minute (UTC)')
    for ax in (top, bottom):
        ax.set_ylabel('messages due')
        if ax.lines:
            ax.legend(loc='upper right', fontsize='small')
    fig.autofmt_xdate()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    pyplot.close(fig)


def _line(ax, points, label, **style):
    minutes = sorted(points)
    ax.plot(minutes, [points[m] for m in minutes], label=label, **style)
