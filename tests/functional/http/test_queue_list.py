"""Queue names with dots are listed whole, page after page, through a
real zaqar-server on ``redis.delay``'s management store, and each
project sees its own queues only.

(python-zaqarclient refuses queue names with dots, which Zaqar accepts,
so these requests are plain HTTP.)
"""

import json
import os
import subprocess
import sys


from tests.fixtures import zaqar_server

# Projects whose names upstream's split at dots would mix up.
PROJECTS = ('tenant.a/b:c', 'tenant', 'tenant.a')
NAMES = ('orders.eu', 'a', 'a.b.c-_', 'q' * 64, 'z.')


class QueueListTest(zaqar_server.ServerTestCase):

    def listed(self, project, limit, detailed=False):
        names, metadata, marker = [], [], None
        for _ in range(20):
            params = {'limit': limit, 'detailed': detailed}
            if marker:
                params['marker'] = marker
            page = self.call('GET', project, 'queues', params=params).json()
            if not page['queues']:
                return names, metadata
            names += [q['name'] for q in page['queues']]
            metadata += [q.get('metadata') for q in page['queues']]
            marker = names[-1]
        self.fail('more pages than queues')

    def make_queues(self):
        own = {}
        for project in PROJECTS:
            own[project] = sorted(NAMES + (project.replace('/', '.')
                                           .replace(':', '-'),))
            for name in own[project]:
                self.call('PUT', project, 'queues/' + name,
                          json={'_default_message_delay': 5})
        return own

    def test_dotted_names_are_listed_whole_in_pages(self):
        own = self.make_queues()
        for project in PROJECTS:
            self.assertEqual(own[project], self.listed(project, 2)[0])
            names, metadata = self.listed(project, 4, detailed=True)
            self.assertEqual(own[project], names)
            self.assertEqual([5] * len(names),
                             [m['_default_message_delay'] for m in metadata])

    def test_export_finds_every_queue_of_a_dotted_project(self):
        own = self.make_queues()
        project = PROJECTS[0]
        self.call('POST', project, 'queues/orders.eu/messages',
                  json={'messages': [{'ttl': 600, 'body': 1, 'delay': 0}]})
        done = subprocess.run(
            [os.path.join(os.path.dirname(sys.executable),
                          'zaqar-delay-manage'),
             '--config-file', self.stack.conf, 'export', '--project',
             project], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True, timeout=120)
        self.assertEqual(0, done.returncode, done.stderr)
        records = [json.loads(line) for line in done.stdout.splitlines()]
        self.assertEqual([(project, 'orders.eu')],
                         [(r['project'], r['queue']) for r in records])
        exported = [line.rsplit(':', 1)[0][len(project) + 1:]
                    for line in done.stderr.splitlines()
                    if line.startswith(project + '/')]
        self.assertEqual(own[project], exported)
