"""Spark jobs for delayed queues: ``schedule`` and ``audit``.

Needs the ``pipeline`` extra (``pip install zaqar-delay[pipeline]``).
"""
