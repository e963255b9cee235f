"""Every code example of README.rst and doc/source/*.rst runs as printed.

tests/fixtures/doc_examples.py finds the examples and says how a page
marks one that is not run (``.. example: skip REASON``) or that goes on
from the one before (``.. example: continues``). The examples of each
page run in the page's order, against the servers of their test class,
with these literals replaced (``SUBSTITUTIONS``):

- ``http://zaqar:8888`` and ``http://127.0.0.1:8888``: the URL of the
  class's zaqar-delay-server (noauth, ``redis.delay``, the ``wsgi.delay``
  transport: upstream's API and doc/source/waiting.rst's);
- ``/etc/zaqar/zaqar.conf``: that server's configuration file.

Commands run in a folder of their own, with this virtualenv's commands
first on ``PATH``. ``openstack`` commands run in ``CliExamplesTest``,
against a zaqar-server that authenticates with Keystone, as a user of
a project of their own (``OS_*`` variables, and
``OS_MESSAGE_CLIENT_ID``); admin.rst's migrations (which drop and
rebuild the index) run in ``AdminExamplesTest``, on a server of their
own. The pages of ``SPARK_PAGES`` run in ``PipelineExamplesTest``
(test_pipeline_examples.py, in tox -e slow). What the examples of a page
should leave behind (a queue's metadata, say) is checked after them (a
class's ``after_<page>``).
"""

import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import urllib.request
import uuid

import testtools

from tests.fixtures import doc_examples
from tests.fixtures import openstack
from tests.fixtures import services
from tests.fixtures import zaqar_server

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))))
PAGES = ['README.rst'] + sorted(
    os.path.relpath(path, TOP)
    for path in glob.glob(os.path.join(TOP, 'doc', 'source', '*.rst')))
# Pages whose examples run the PySpark jobs (the pipeline extra).
SPARK_PAGES = ('doc/source/pipeline.rst',)
DOCUMENTED_URLS = ('http://zaqar:8888', 'http://127.0.0.1:8888')
DOCUMENTED_CONF = '/etc/zaqar/zaqar.conf'


def page_examples(page):
    return doc_examples.examples(os.path.join(TOP, page))


def is_cli(example):
    """Whether a console example runs an ``openstack`` command."""
    return example.lang == 'console' and any(
        re.search(r'(^|\$\()openstack ', command)
        for command in doc_examples.commands(example))


def needs_spark(example):
    return os.path.relpath(example.path, TOP) in SPARK_PAGES


def _slug(page):
    return os.path.basename(page).replace('.', '_').lower()


def queue_metadata(url, project, queue):
    """A queue's metadata as Zaqar's API gives it (``QUEUE/stats``: its
    stats; ``''``: the list of queues)."""
    req = urllib.request.Request(
        '%s/v2/queues%s' % (url, queue and '/' + queue), headers={
            'Client-ID': str(uuid.uuid4()), 'X-Project-ID': project})
    with urllib.request.urlopen(req, timeout=10) as reply:
        return json.loads(reply.read())


class _Examples(testtools.TestCase):
    """Runs the examples of a page that ``wanted`` takes, in order."""

    stack = None
    timeout = doc_examples.TIMEOUT      # seconds a command may take

    @classmethod
    def start_stack(cls):
        return zaqar_server.ZaqarServer(max_delay=3600,
                                        wsgi_delay=True).start()

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.stack = cls.start_stack()
        cls.dir = tempfile.mkdtemp(prefix='zaqar-delay-docs-')

    @classmethod
    def tearDownClass(cls):
        cls.stack.cleanup()
        shutil.rmtree(cls.dir, ignore_errors=True)
        super().tearDownClass()

    @classmethod
    def wanted(cls, example):
        raise NotImplementedError

    def substitutions(self):
        subs = {url: self.stack.url for url in DOCUMENTED_URLS}
        subs[DOCUMENTED_CONF] = self.stack.conf
        return subs

    def environ(self):
        bin_dir = os.path.dirname(sys.executable)
        return dict(os.environ, PATH=bin_dir + os.pathsep +
                    os.environ.get('PATH', ''))

    def run_page(self, page):
        found = page_examples(page)
        heads = {id(chain[0]): chain
                 for chain in doc_examples.chains(found)}
        ran = 0
        for example in found:
            if example.marker == 'skip' or not self.wanted(example):
                continue
            if example.lang == 'console':
                doc_examples.run_console(example, self.substitutions(),
                                         self.environ(), self.dir,
                                         self.timeout)
                ran += 1
            elif id(example) in heads:
                doc_examples.run_python(heads[id(example)],
                                        self.substitutions(),
                                        self.environ(), self.dir)
                ran += 1
        return ran


def _page_tests(cls, pages):
    """A test_<page> method on ``cls`` for each page with examples it
    takes; each runs them, then the class's after_<page> check."""
    for page in pages:
        taken = [e for e in page_examples(page)
                 if e.marker != 'skip' and cls.wanted(e)]
        if not taken:
            continue

        def test(self, page=page):
            self.assertGreater(self.run_page(page), 0)
            check = getattr(self, 'after_' + _slug(page)[:-4], None)
            if check:
                check()
        test.__name__ = 'test_' + _slug(page)
        test.__doc__ = 'The examples of %s run as printed.' % page
        setattr(cls, test.__name__, test)


class ExamplesTest(_Examples):
    """The python-zaqarclient and zaqar-delay-manage examples."""

    @classmethod
    def start_stack(cls):
        # The push commands want a store that keeps pending pushes.
        pushes = {'storage': {'message_pipeline':
                              'zaqar_delay.notification.notifier'}}
        return zaqar_server.ZaqarServer(max_delay=3600, wsgi_delay=True,
                                        options=pushes).start()

    @classmethod
    def wanted(cls, example):
        return not is_cli(example) and not needs_spark(example) and (
            not example.path.endswith('admin.rst'))

    def metadata(self, project, queue):
        return queue_metadata(self.stack.url, project, queue)

    def test_the_client_behaves_as_the_user_guide_says(self):
        # user.rst, "Queue metadata with python-zaqarclient": when a
        # python-zaqarclient changes this, the guide changes too.
        from zaqarclient.queues import client
        cli = client.Client(self.stack.url, version=2, conf={
            'auth_opts': {'backend': 'noauth',
                          'options': {'os_project_id': 'guide'}}})
        cli.queue('plain')
        self.assertEqual([], self.metadata('guide', '')['queues'])
        queue = cli.queue('guide', force_create=True)
        queue.metadata(new_meta={'a': 1, '_default_message_delay': 5})
        queue.metadata(new_meta={'b': 2, '_max_claim_count': 3,
                                 '_dead_letter_queue': 'guide-dead'})
        meta = self.metadata('guide', 'guide')
        self.assertEqual((None, 2, None, None), (
            meta.get('a'), meta.get('b'), meta['_max_claim_count'],
            meta['_dead_letter_queue']), meta)

    def after_user(self):
        stats = self.metadata('demo', 'reminders/stats')['messages']
        self.assertEqual((1, 1, 2), (stats['claimed'], stats['delayed'],
                                     stats['total']), stats)
        meta = self.metadata('demo', 'reminders')
        self.assertEqual((30, 5, 'reminders-dead'), (
            meta['_default_message_delay'], meta['_max_claim_count'],
            meta['_dead_letter_queue']), meta)

    def after_retries(self):
        # Each example sets its keys and keeps the others, dead-letter
        # keys included (python-zaqarclient's metadata() drops those).
        meta = self.metadata('jobs', 'work')
        self.assertEqual({'initial': 5, 'factor': 2, 'max': 3600},
                         meta.get('_retry_backoff'), meta)
        self.assertEqual((8, 'work-failed', 'job_id'), (
            meta['_max_claim_count'], meta['_dead_letter_queue'],
            meta.get('_dedup_key')), meta)
        # Job 1 done, job 2 given back with its backoff; one dedup post
        # and one post with an idempotency key, each sent twice.
        stats = self.metadata('jobs', 'work/stats')['messages']
        self.assertEqual((1, 2, 3), (stats['delayed'], stats['free'],
                                     stats['total']), stats)

    def after_schedules(self):
        names = [s['name'] for s in self.metadata('jobs', 'reports').get(
            '_schedules', ())]
        self.assertEqual(['nightly', 'heartbeat'], names)

    def after_history(self):
        meta = self.metadata('tenant.a', 'orders-eu')
        self.assertEqual((60, 86400), (meta['_default_message_delay'],
                                       meta.get('_history_ttl')), meta)


class AdminExamplesTest(_Examples):
    """admin.rst: migrations between redis and redis.delay, which drop
    and rebuild the delay index, and between mongodb and mongodb.delay
    (the server's zaqar.conf names a MongoDB database too): a server of
    their own."""

    @classmethod
    def start_stack(cls):
        mongodb = {'drivers:message_store:mongodb': {
            'uri': services.mongo_server().url,
            'database': 'docs_' + uuid.uuid4().hex[:8]}}
        return zaqar_server.ZaqarServer(max_delay=3600, wsgi_delay=True,
                                        options=mongodb).start()

    @classmethod
    def wanted(cls, example):
        return example.path.endswith('admin.rst') and not is_cli(example)


class CliExamplesTest(_Examples):
    """The ``openstack`` commands, as a Keystone user, against a
    zaqar-server that authenticates with Keystone."""

    @classmethod
    def start_stack(cls):
        cls.keystone = services.keystone()
        if not getattr(cls.keystone, 'docs_user', None):
            cls.keystone.docs_user = cls.keystone.user('docs-user',
                                                       'docs-project')
        stack = zaqar_server.ZaqarServer(
            max_delay=3600, keystone=cls.keystone.zaqar_auth(),
            wsgi_delay=True).start()
        cls.keystone.point('messaging', stack.url, 'zaqar')
        return stack

    @classmethod
    def wanted(cls, example):
        return is_cli(example) and not needs_spark(example)

    def openstack(self, *argv):
        proc = subprocess.run(['openstack'] + list(argv), env=self.environ(),
                              capture_output=True, text=True, timeout=120)
        self.assertEqual(0, proc.returncode, proc.stderr)
        return json.loads(proc.stdout)

    def after_retries(self):
        meta = self.openstack('messaging', 'queue', 'get', 'metadata',
                              'work', '-f', 'json')['Metadata']
        self.assertEqual((8, 'work-failed'), (
            meta['_max_claim_count'], meta['_dead_letter_queue']), meta)

    def environ(self):
        return dict(super().environ(),
                    OS_AUTH_URL=self.keystone.keystone + '/v3',
                    OS_USERNAME='docs-user',
                    OS_PASSWORD=self.keystone.docs_user,
                    OS_PROJECT_NAME='docs-project',
                    OS_USER_DOMAIN_ID='default',
                    OS_PROJECT_DOMAIN_ID='default',
                    OS_REGION_NAME=openstack.REGION,
                    OS_IDENTITY_API_VERSION='3',
                    OS_MESSAGE_CLIENT_ID=str(uuid.uuid4()))


_page_tests(ExamplesTest, PAGES)
_page_tests(AdminExamplesTest, PAGES)
_page_tests(CliExamplesTest, PAGES)


class ExamplesFoundTest(testtools.TestCase):
    """Every example is run by one class, or skipped with its reason."""

    def test_every_example_is_run_or_skipped_with_a_reason(self):
        from tests.functional.docs import test_pipeline_examples
        classes = (ExamplesTest, AdminExamplesTest, CliExamplesTest,
                   test_pipeline_examples.PipelineExamplesTest)
        for page in PAGES:
            for example in page_examples(page):
                takers = [cls for cls in classes if cls.wanted(example)]
                if example.marker == 'skip':
                    self.assertTrue(example.reason, example)
                else:
                    self.assertEqual(1, len(takers), example)
