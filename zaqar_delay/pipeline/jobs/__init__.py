"""The console commands of the pipeline: each reads, runs a
transform and writes (``zaqar-delay-schedule``, ``zaqar-delay-audit``).
"""
