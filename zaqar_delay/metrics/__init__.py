"""Prometheus metrics of a delay store and of its push dispatchers.

``collector.StoreCollector`` reads the stores when scraped (a bounded
index read per queue, see each backend's reader); ``process`` holds the
counters a dispatcher process updates as it pushes and ticks;
``serve`` puts both behind an HTTP port. See doc/source/metrics.rst.
"""
