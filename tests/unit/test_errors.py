"""zaqar-delay's errors are one hierarchy, in one module (and
storage_errors.py for those that are Zaqar's storage errors as well),
posing as no upstream error but there."""

import ast
import builtins
import os
import subprocess
import sys

import testtools
from zaqar.storage import errors as storage_errors
from zaqar.transport import validation

import zaqar_delay
from zaqar_delay import errors
from zaqar_delay import storage_errors as zaqar_typed

HOMES = (errors, zaqar_typed)

PACKAGE = os.path.dirname(zaqar_delay.__file__)
# A class deriving from one of these, or from a class named like an
# error, is an exception class.
EXCEPTIONS = {name for module in (builtins, errors, storage_errors,
                                  validation)
              for name, value in vars(module).items()
              if isinstance(value, type) and issubclass(value, BaseException)}


def _base_name(node):
    return node.attr if isinstance(node, ast.Attribute) else getattr(
        node, 'id', '')


def exception_classes(source):
    """The names of the exception classes ``source`` defines."""
    return [node.name for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.ClassDef) and any(
                _base_name(base) in EXCEPTIONS
                or _base_name(base).endswith(('Error', 'Exception',
                                              'Failed', 'Failure'))
                for base in node.bases)]


def exception_classes_outside_errors():
    """(path, class) of each exception class outside errors.py and
    storage_errors.py."""
    homes = {home.__file__ for home in HOMES}
    found = []
    for folder, _, files in os.walk(PACKAGE):
        for name in sorted(files):
            path = os.path.join(folder, name)
            if name.endswith('.py') and path not in homes:
                with open(path) as f:
                    found.extend((os.path.relpath(path, PACKAGE), cls)
                                 for cls in exception_classes(f.read()))
    return found


class HierarchyTest(testtools.TestCase):

    def test_every_exception_is_defined_in_errors(self):
        self.assertEqual([], exception_classes_outside_errors())

    def test_every_exception_derives_from_the_base(self):
        classes = [value for home in HOMES for value in vars(home).values()
                   if isinstance(value, type)
                   and issubclass(value, BaseException)
                   and value.__module__ == home.__name__]
        self.assertGreater(len(classes), 13)
        for cls in classes:
            self.assertTrue(issubclass(cls, errors.DelayError), cls)

    def test_zaqars_storage_errors_are_named_through_errors(self):
        for name in errors._STORAGE_ERRORS:
            cls = getattr(errors, name)
            self.assertIs(getattr(zaqar_typed, name), cls)
            self.assertTrue(issubclass(cls, storage_errors.ExceptionBase),
                            cls)
        self.assertRaises(AttributeError, getattr, errors, 'NoSuchError')

    def test_errors_imports_no_zaqar(self):
        # The PySpark jobs import errors: Zaqar's package would cost
        # them some 600 modules.
        code = ('import sys; import zaqar_delay.errors; '
                'print([m for m in sys.modules if m.split(".")[0] '
                '== "zaqar"])')
        found = subprocess.run([sys.executable, '-c', code], check=True,
                               capture_output=True, text=True).stdout
        self.assertEqual('[]', found.strip())

    def test_no_error_poses_as_a_zaqar_validation_or_lookup_error(self):
        # A refusal becomes Zaqar's error only where Zaqar is answered
        # (zaqar_delay.storage.boundary).
        for cls in (errors.Refused, errors.QueueMetadataRefused):
            self.assertFalse(issubclass(cls, validation.ValidationFailed))
            self.assertFalse(issubclass(cls, storage_errors.ExceptionBase))

    def test_a_refusal_formats_its_text(self):
        self.assertEqual("a {b} 'c' 2",
                         str(errors.Refused("a {{b}} {0!r} {1}", 'c', 2)))
        refused = errors.QueueMetadataRefused('q.1', 'why {x}')
        self.assertEqual('Queue "q.1" not created: why {x}', str(refused))
        self.assertEqual(('q.1', 'why {x}'), (refused.queue, refused.why))

    def test_not_replicated_is_a_storage_error_with_its_numbers(self):
        error = errors.NotReplicated(acked=0, wanted=1, timeout_ms=50)
        self.assertIsInstance(error, storage_errors.ExceptionBase)
        self.assertEqual('write held by 0 of 1 redis replicas after 50 ms:'
                         ' not acknowledged', str(error))

    def test_the_scan_finds_exception_classes(self):
        self.assertEqual(['A', 'B', 'D', 'E'], exception_classes(
            'class A(errors.Refused): pass\n'
            'class B(ValueError): pass\n'
            'class C(logging.Filter): pass\n'
            'class D(storage_errors.DoesNotExist): pass\n'
            'def f():\n'
            '    class E(x.SomeError): pass\n'))
