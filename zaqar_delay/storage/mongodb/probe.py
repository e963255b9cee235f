"""Whether a MongoDB store answers: one ``ping`` (``base.Probe``)."""

import pymongo
import pymongo.errors

from zaqar_delay.storage import base
from zaqar_delay.storage import common


class Probe(base.Probe):
    """The ``ping`` command, with server selection cut to the timeout."""

    errors = (OSError, pymongo.errors.PyMongoError)

    @staticmethod
    def ping(where, timeout):
        client = pymongo.MongoClient(common.plain_uri(where, 'mongodb'),
                                     serverSelectionTimeoutMS=timeout * 1000,
                                     connectTimeoutMS=timeout * 1000)
        try:
            client.admin.command('ping')
        finally:
            client.close()
