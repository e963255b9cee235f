import os
import re

import testtools

from zaqar_delay.storage.redis import keys
from zaqar_delay.storage.redis import scripting

FOLDER = os.path.dirname(os.path.abspath(scripting.__file__))
# The functions that build key names in Lua, the exception to "every key
# in KEYS" documented in scripts/index.lua's header.
BUILDERS = {'chunk_key', 'count_key', 'list_key'}
LAYOUT = ('CHUNK', 'CHUNK_INFIX', 'WAITING_COUNT', 'CHUNK_LIST')


def lua_files():
    """(name, text) of each file of scripts/."""
    for name in sorted(os.listdir(os.path.join(FOLDER, 'scripts'))):
        with open(os.path.join(FOLDER, 'scripts', name)) as f:
            yield name, f.read()


def code(text):
    """Lua text without its comments."""
    return re.sub(r'--[^\n]*', '', re.sub(r'--\[\[.*?--\]\]', '', text,
                                          flags=re.DOTALL))


class ScriptsTest(testtools.TestCase):

    def test_every_command_has_a_header_and_expands(self):
        for name in scripting.Scripts.NAMES:
            text = scripting.source(name)
            header = text.split('--]]', 1)[0]
            for part in ('KEYS[', 'ARGV[', 'Returns'):
                self.assertIn(part, header, name)
            self.assertNotIn('@include', text, name)

    def test_includes_are_expanded(self):
        self.assertIn('local function promote', scripting.source('claim'))

    def test_scripts_build_key_names_only_as_documented(self):
        call = re.compile(r"redis\.call\('\w+', ([^,)]+)")
        concatenated = re.compile(r'\blocal (\w+)\s*=[^\n]*\.\.')
        builder = re.compile(r'local function (\w+)\([^)]*\)\s*return '
                             r'[^\n]*\.\.')
        for name, text in lua_files():
            body = code(text)
            built = set(concatenated.findall(body))
            for key in call.findall(body):
                self.assertNotIn('..', key, name)
                self.assertNotIn(key.strip(), built, name)
                called = re.match(r'\s*(\w+)\(', key)
                if called:
                    self.assertIn(called.group(1), BUILDERS, name)
            self.assertEqual(BUILDERS if name == 'index.lua' else set(),
                             set(builder.findall(body)), name)
        header = scripting.source('index').split('--]]', 1)[0]
        for documented in sorted(BUILDERS) + ['CHUNK_INFIX', 'WAITING_COUNT',
                                              'CHUNK_LIST']:
            self.assertIn(documented, header)

    def test_the_chunk_layout_is_defined_once_in_keys(self):
        assigned = re.compile(r'^\s*(?:local\s+)?([\w, ]+?)\s*=[^=]',
                              re.MULTILINE)
        for name, text in lua_files():
            body = code(text)
            names = {n.strip() for found in assigned.findall(body)
                     for n in found.split(',')}
            self.assertEqual(set(), names & set(LAYOUT), name)
            for literal in ("'%s" % keys.CHUNK_INFIX, str(keys.CHUNK)):
                self.assertNotIn(literal, body, name)
        for path, _, files in os.walk(os.path.dirname(FOLDER)):
            for name in files:
                if name.endswith('.py') and name != 'keys.py':
                    with open(os.path.join(path, name)) as f:
                        text = f.read()
                    self.assertNotIn("'%s" % keys.CHUNK_INFIX, text, name)
                    self.assertIsNone(re.search(
                        r'^(%s)\s*=' % '|'.join(LAYOUT), text,
                        re.MULTILINE), name)
        # What every queue script gets is keys.py's.
        line = scripting.layout()
        self.assertEqual("local CHUNK, CHUNK_INFIX, WAITING_COUNT, "
                         "CHUNK_LIST = %d, '%s', '%s', '%s'" % (
                             keys.CHUNK, keys.CHUNK_INFIX,
                             keys.WAITING_COUNT, keys.CHUNK_LIST), line)
        for name in scripting.Scripts.QUEUE:
            self.assertEqual(1, scripting.source(name).count(line), name)
            self.assertNotIn('--- @layout', scripting.source(name), name)

    def test_index_keys_are_named_once_and_never_shadowed(self):
        names = keys.Index._fields + ('own_sets', 'index_sets')
        shadow = re.compile(r'\blocal (?:function )?([\w, ]+?)\s*(?:=|\()')
        for name in scripting.Scripts.QUEUE:
            body = scripting.source(name).split('--]]', 1)[1]
            binding = ('local messages, ready, waiting, due, claimed, '
                       'claim_expiry =\n    KEYS[1], KEYS[2], KEYS[3], '
                       'KEYS[4], KEYS[5], KEYS[6]\n')
            self.assertIn(binding, body, name)
            self.assertIsNone(re.search(r'KEYS\[[1-6]\]',
                                        body.split(binding, 1)[1]), name)
            bound = [n.strip() for found in shadow.findall(body)
                     for n in found.split(',')]
            for key in names:
                self.assertEqual(1, bound.count(key), (name, key))


class IndexTest(testtools.TestCase):

    def test_index_keys_in_script_order_with_names(self):
        index = keys.index('q', 'p')
        self.assertEqual('p.q.messages', index.messages)
        self.assertEqual('p.q.delay.wait_due', index.due)
        self.assertEqual('p.q.delay.wait.#3', index.chunk(3))
        self.assertEqual('p.q.delay.wait.#n', index.waiting_count)
        self.assertEqual('p.q.delay.ready.#3', index.ready_chunk(3))
        self.assertEqual(['p.q.delay.wait.#n', 'p.q.delay.ready.#c',
                          'p.q.delay.ready.#n'], index.chunk_lists)
        self.assertEqual(['p.q.delay.waiting', 'p.q.delay.due'],
                         index.unchunked)
        self.assertEqual(list(index), [index.messages, index.ready,
                                       index.waiting, index.due,
                                       index.claimed, index.claim_expiry])
        self.assertEqual(list(index)[1:], index.own())


class HistoryKeyTest(testtools.TestCase):

    def test_dotted_names_never_share_a_history(self):
        # Upstream's <project>.<queue> names collide for these two pairs;
        # redis.delay's do not (keys.scoped_project).
        self.assertNotEqual(keys.index('b.c', 'a').messages,
                            keys.index('c', 'a.b').messages)
        pairs = [('b.c', 'a'), ('c', 'a.b'), ('a.b.c', None),
                 ('c', 'tenant.a/b:c'), ('b:c.c', 'tenant.a/')]
        names = {keys.history(queue, project) for queue, project in pairs}
        self.assertEqual(len(pairs), len(names))
        self.assertEqual('zaqar_delay.history.14:tenant%2Ea/b:c.q.1',
                         keys.history('q.1', 'tenant.a/b:c'))


class OnePlaceTest(testtools.TestCase):

    def test_every_script_is_registered_by_scripts(self):
        # So that with wait_replicas every write is replicated before it
        # is acknowledged (scripting.Replicated).
        folder = os.path.dirname(scripting.source.__code__.co_filename)
        for name in os.listdir(folder):
            if name.endswith('.py') and name != 'scripting.py':
                with open(os.path.join(folder, name)) as f:
                    self.assertNotIn('register_script', f.read(), name)
        lua = {name[:-4] for name in os.listdir(os.path.join(folder,
                                                             'scripts'))}
        # Those that others include are parts, not commands.
        included = set()
        for name in lua:
            with open(os.path.join(folder, 'scripts', name + '.lua')) as f:
                included.update(scripting._INCLUDE.findall(f.read()))
        self.assertLessEqual({'index', 'history', 'plan'}, included)
        self.assertEqual(lua - included, set(scripting.Scripts.NAMES))
