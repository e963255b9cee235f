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


def _seconds(value):
    return '-' if value is None else '%.1fs' % value


def history_summary(queues, out):
    """Write the true lateness summary of collected per-queue rows
    (``transforms.history.queue_lateness``)."""
    total = {k: sum(q[k] or 0 for q in queues) for k in (
        'posted', 'delivered', 'early', 'claims', 'claimed', 'retried')}
    out.write('true lateness of deliveries (first claim or first 2xx '
              'push), from a history\n')
    out.write('%(posted)d messages posted in ' % total + '%d queues: %d '
              'delivered\n' % (len(queues), total['delivered']))
    out.write('delivered before due: %d\n' % total['early'])
    out.write('claims: %(claims)d on %(claimed)d messages, %(retried)d '
              'claimed more than once\n' % total)
    out.write('\n%-28s %7s %9s %5s %9s %9s %9s %9s %10s %7s\n' % (
        'project/queue', 'posted', 'delivered', 'early', 'late p50',
        'late p90', 'late p99', 'late max', 'claims/msg', 'retried'))
    for q in queues:
        late = ' '.join('%9s' % _seconds(q[k]) for k in (
            'lateness_p50', 'lateness_p90', 'lateness_p99', 'lateness_max'))
        per = '%.2f' % (q['claims'] / q['claimed']) if q['claimed'] else '-'
        out.write('%-28s %7d %9d %5d %s %10s %7d\n' % (
            '%s/%s' % (q['project'] or '-', q['queue']), q['posted'],
            q['delivered'], q['early'], late, per, q['retried']))
