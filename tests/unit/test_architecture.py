"""Imports run down the layers that ``doc/source/architecture.rst``
lists: each module of zaqar_delay imports from its own layer and the
layers below it only. Read from the source (``ast``), not imported;
names loaded with ``importlib`` are not seen."""

import ast
import pathlib
import re

import fixtures
import testtools

ROOT = pathlib.Path(__file__).resolve().parents[2]
PACKAGE = ROOT / 'zaqar_delay'
DOC = ROOT / 'doc' / 'source' / 'architecture.rst'


def layers(text):
    """{top-level folder or module of zaqar_delay: layer number}, from
    the first code block after the ``Layers`` title: lines ``N name
    part part...``, continued on lines that start with a space."""
    block = text.split('\nLayers\n------\n', 1)[1]
    block = block.split('.. code-block:: text\n', 1)[1]
    found, number = {}, None
    for line in block.split('\n')[1:]:
        if line and not line.startswith(' '):
            break
        head = re.match(r'\s+(\d+)\s+\S+\s+(.*)', line)
        if head:
            number, parts = int(head.group(1)), head.group(2)
        elif line.strip():
            parts = line
        else:
            continue
        for part in parts.split():
            found[part.rstrip('/')] = number
    return found


def top(module):
    """The top-level part of a zaqar_delay module's dotted name."""
    return module.split('.')[1] if module.count('.') else None


def imported(tree):
    """(line, module) of each zaqar_delay module that ``tree`` imports."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module == (
                'zaqar_delay'):
            names = ['zaqar_delay.' + alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module]
        else:
            continue
        for name in names:
            if name.startswith('zaqar_delay.'):
                yield node.lineno, name


def pointing_up(package, table):
    """'path:line imports module (layer a < b)' for each import that
    points up, and 'path: in no layer' for each module without one."""
    found = []
    for path in sorted(package.rglob('*.py')):
        relative = path.relative_to(package.parent)
        if relative.parts[1:] == ('__init__.py',):
            continue
        own = relative.parts[1].removesuffix('.py')
        if own not in table:
            found.append('%s: in no layer' % relative)
            continue
        tree = ast.parse(path.read_text(), str(path))
        for line, name in imported(tree):
            if table.get(top(name), 0) > table[own]:
                found.append('%s:%d imports %s (layer %d above %d)' % (
                    relative, line, name, table[top(name)], table[own]))
    return found


class LayersTest(testtools.TestCase):

    def test_no_import_points_up(self):
        self.assertEqual([], pointing_up(PACKAGE, layers(DOC.read_text())))

    def test_the_table_names_what_is_there(self):
        table = layers(DOC.read_text())
        there = {path.name.removesuffix('.py') for path in PACKAGE.iterdir()
                 if path.suffix == '.py' or (path / '__init__.py').exists()}
        self.assertEqual(sorted(there - {'__init__'}), sorted(table))
        self.assertIn('storage', table)

    def test_an_import_up_is_found(self):
        package = pathlib.Path(self.useFixture(fixtures.TempDir()).path,
                               'zaqar_delay')
        for name, text in (
                ('storage/__init__.py', ''),
                ('storage/common.py', 'from zaqar_delay.push import runner'),
                ('push/__init__.py', 'import zaqar_delay.delay'),
                ('delay.py', 'from zaqar_delay import storage'),
                ('other.py', '')):
            (package / name).parent.mkdir(parents=True, exist_ok=True)
            (package / name).write_text(text + '\n')
        self.assertEqual([
            'zaqar_delay/delay.py:1 imports zaqar_delay.storage '
            '(layer 2 above 1)',
            'zaqar_delay/other.py: in no layer',
            'zaqar_delay/storage/common.py:1 imports zaqar_delay.push '
            '(layer 3 above 2)'],
            pointing_up(package, {'delay': 1, 'storage': 2, 'push': 3}))
