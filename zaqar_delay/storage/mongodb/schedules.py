"""The schedule index of a ``mongodb.delay`` store (``zaqar_delay.schedules``).

One document a queue with schedules in ``zaqar_delay_schedules``; a
take is one guarded update a queue, O(log n) on the next look's index;
afters only move forward and the next look is written only while the
pass still holds the queue. The fields: doc/source/mongodb.rst,
"Schedule index".
"""

import pymongo
from zaqar.storage.mongodb import utils

from zaqar_delay import pending
from zaqar_delay.storage import base
from zaqar_delay.storage.mongodb import side

COLLECTION = 'zaqar_delay_schedules'
ATTEMPTS = 8    # conditional writes of afters lost to racing passes


def _id(queue, project):
    return pending.SEP.join((queue, project or ''))


class Schedules(base.ScheduleStore):
    """What the schedule pass and the queue stages need of the store."""

    def __init__(self, driver):
        super().__init__(driver)
        # The collection; its ``n`` index is made by the first call.
        self._collection = side.Collection(driver, COLLECTION, 'n',
                                           'schedules_next')

    @utils.raises_conn_error
    @utils.retries_on_autoreconnect
    def touch(self, queue, project, at, defined):
        """Look at the queue's schedules at ``at``; they were set at
        ``defined``."""
        self._collection().update_one(
            {'_id': _id(queue, project)},
            {'$set': {'n': at, 'q': queue, 'p': project,
                      'd': int(defined)}},
            upsert=True)

    @utils.raises_conn_error
    @utils.retries_on_autoreconnect
    def defined(self, queue, project):
        """When the queue's schedules were last set (``touch``), or
        None."""
        doc = self._collection().find_one({'_id': _id(queue, project)},
                                          projection={'d': 1})
        found = (doc or {}).get('d')
        return None if found is None else int(found)

    @utils.raises_conn_error
    @utils.retries_on_autoreconnect
    def take(self, now, limit, lease):
        """Up to ``limit`` due queues, held for ``lease`` seconds."""
        collection, taken = self._collection(), []
        while len(taken) < limit:
            doc = collection.find_one_and_update(
                {'n': {'$lte': now}}, {'$set': {'n': now + lease}},
                sort=[('n', pymongo.ASCENDING)], projection={'q': 1, 'p': 1})
            if doc is None:
                break
            taken.append((doc['q'], doc['p']))
        return taken

    @utils.raises_conn_error
    @utils.retries_on_autoreconnect
    def afters(self, queue, project):
        doc = self._collection().find_one({'_id': _id(queue, project)},
                                          projection={'a': 1})
        return {name: int(after) for name, after in (doc or {}).get('a', [])}

    @utils.raises_conn_error
    @utils.retries_on_autoreconnect
    def afters_of(self, taken):
        """``afters`` of each (queue, project): one request."""
        ids = [_id(queue, project) for queue, project in taken]
        found = {doc['_id']: doc.get('a', []) for doc in
                 self._collection().find({'_id': {'$in': ids}},
                                         projection={'a': 1})}
        return [{name: int(after) for name, after in found.get(key, [])}
                for key in ids]

    @utils.raises_conn_error
    @utils.retries_on_autoreconnect
    def advance(self, queue, project, afters, next_look, held):
        """Move each schedule's after forward to ``afters`` (never back).
        Only while the queue is still held until ``held`` (the lease end
        it was taken with): forget the other schedules and look again at
        ``next_look`` (None: forget the queue). True if the next look
        was written. Two requests, or more while other passes write the
        same document (the write is conditional on what was read)."""
        collection, key = self._collection(), _id(queue, project)
        for _ in range(ATTEMPTS):
            doc = collection.find_one({'_id': key},
                                      projection={'a': 1, 'n': 1})
            if doc is None:
                return False    # forgotten by a pass that held it later
            holding = doc['n'] == held
            if holding and next_look is None:
                return bool(collection.delete_one(
                    {'_id': key, 'n': held}).deleted_count)
            merged = {} if holding else dict(doc.get('a', []))
            for name, after in doc.get('a', []):
                if name in afters:
                    merged[name] = max(int(after), afters[name])
            merged = dict(afters, **merged)
            update = {'a': [[name, after]
                            for name, after in sorted(merged.items())]}
            if holding:
                update['n'] = next_look
            if collection.update_one(
                    {'_id': key, 'n': doc['n'],
                     'a': doc['a'] if 'a' in doc else {'$exists': False}},
                    {'$set': update}).matched_count:
                return holding
        return False

    @utils.raises_conn_error
    @utils.retries_on_autoreconnect
    def next_due(self):
        doc = self._collection().find_one(
            {}, projection={'n': 1}, sort=[('n', pymongo.ASCENDING)])
        return doc['n'] if doc else None

    @utils.raises_conn_error
    @utils.retries_on_autoreconnect
    def next_tick(self, queue, project):
        doc = self._collection().find_one({'_id': _id(queue, project)},
                                          projection={'n': 1})
        return int(doc['n']) if doc else None

    @utils.raises_conn_error
    @utils.retries_on_autoreconnect
    def listed(self, limit):
        """Up to ``limit`` (queue, project, next look), earliest first."""
        return [(doc['q'], doc['p'], int(doc['n'])) for doc in
                self._collection().find({}, sort=[('n', pymongo.ASCENDING)],
                                        limit=limit)]
