"""Whether a Swift store's Keystone answers: one GET (``base.Probe``)."""

import urllib.error
import urllib.request

from zaqar_delay.storage import base


class Probe(base.Probe):
    """A GET of the ``auth_url``; any HTTP answer counts. A Swift URI
    names no Keystone, so one given to a command does not replace it."""

    option = 'auth_url'

    @staticmethod
    def ping(where, timeout):
        try:
            urllib.request.urlopen(where, timeout=timeout).close()
        except urllib.error.HTTPError:
            pass            # it answered
