"""An object whose method calls are recorded by name: what a test
counts the requests of (a pymongo collection, for one)."""


class Recording:
    """``wrapped``, its method calls appended by name to ``calls``."""

    def __init__(self, wrapped, calls=None):
        self._wrapped = wrapped
        self.calls = [] if calls is None else calls

    def __getattr__(self, name):
        found = getattr(self._wrapped, name)
        if not callable(found):
            return found

        def call(*args, **kwargs):
            self.calls.append(name)
            return found(*args, **kwargs)
        return call
