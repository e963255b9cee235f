"""Whether a MongoDB store answers: one ``ping`` (``base.Probe``)."""

import pymongo
import pymongo.errors

from zaqar_delay.storage import base
from zaqar_delay.storage import common


# Where pymongo, so Zaqar's mongodb drivers, connect without a uri.
DEFAULT = 'mongodb://localhost:27017'


class Probe(base.Probe):
    """The ``ping`` command, with server selection cut to the timeout; a
    store without ``uri`` is pinged where pymongo connects then."""

    errors = (OSError, pymongo.errors.PyMongoError)

    @classmethod
    def where(cls, settings):
        return super().where(settings) or DEFAULT

    @staticmethod
    def ping(where, timeout):
        client = pymongo.MongoClient(common.plain_uri(where, 'mongodb'),
                                     serverSelectionTimeoutMS=timeout * 1000,
                                     connectTimeoutMS=timeout * 1000)
        try:
            client.admin.command('ping')
        finally:
            client.close()
