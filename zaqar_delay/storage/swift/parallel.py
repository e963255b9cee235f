"""Swift requests made at once.

Swift takes tens of milliseconds to answer a request and serves several
at once, so an operation makes together the requests that do not wait
on one another: the writes of one step, or the same steps for several
messages. The order that crash safety needs is kept between steps.
"""

from concurrent import futures

WORKERS = 8     # requests one operation keeps in flight at most


def together(*calls):
    """Call each of ``calls`` at once; their results, in order. When one
    raises, the others still run to their end, then the first error is
    raised."""
    if len(calls) <= 1:
        return [call() for call in calls]
    with futures.ThreadPoolExecutor(len(calls)) as pool:
        done = [pool.submit(call) for call in calls]
    return [future.result() for future in done]


def each(function, items, workers=WORKERS):
    """``[function(item) for item in items]``, up to ``workers`` at once."""
    items = list(items)
    if len(items) <= 1:
        return [function(item) for item in items]
    with futures.ThreadPoolExecutor(min(workers, len(items))) as pool:
        return list(pool.map(function, items))
