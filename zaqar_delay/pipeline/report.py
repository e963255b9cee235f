"""The audit's summary: totals, then a line per queue."""

import datetime


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
