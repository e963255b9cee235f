"""Collections a ``mongodb.delay`` store keeps beside the messages (failed
pushes, the schedule index), in the first message database."""

import pymongo


class Collection:
    """A side collection with one ascending index on ``field``, made by
    the first call (one request per object, not one per call)."""

    def __init__(self, driver, name, field, index_name):
        self._driver = driver
        self._name = name
        self._field = field
        self._index_name = index_name
        self._indexed = False

    def __call__(self):
        collection = self._driver.message_databases[0][self._name]
        if not self._indexed:
            collection.create_index([(self._field, pymongo.ASCENDING)],
                                    name=self._index_name)
            self._indexed = True
        return collection
