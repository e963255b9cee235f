"""Pure DataFrame functions of the pipeline: no I/O, no Zaqar; the
jobs read, call these and write.
"""
