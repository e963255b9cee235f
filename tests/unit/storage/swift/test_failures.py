import http.client

from keystoneauth1 import exceptions as keystone_errors
import swiftclient
import testtools
from zaqar.storage import errors as storage_errors

from zaqar_delay import errors
from zaqar_delay.storage.swift import driver
from zaqar_delay.storage.swift import failures
from zaqar_delay.storage.swift import stages


def _status(status):
    return swiftclient.ClientException('Object GET failed',
                                       http_status=status)


class Raising:
    """Raises what it is given, from a method, a generator, a static and
    a class method."""

    def __init__(self, error):
        self.error = error

    def call(self):
        raise self.error

    def pages(self):
        yield 'first'
        raise self.error

    @staticmethod
    def static(error):
        raise error

    @classmethod
    def named(cls, error):
        raise error

    def _inside(self):
        raise self.error


Translated = failures.translated(Raising)


class FailedTest(testtools.TestCase):

    def test_connection_errors_5xx_and_refused_tokens_are_failures(self):
        for exc in (ConnectionRefusedError(111, 'Connection refused'),
                    TimeoutError('timed out'),
                    http.client.RemoteDisconnected('closed'),
                    keystone_errors.ConnectFailure('keystone'),
                    _status(None), _status(500), _status(503),
                    _status(401), _status(429)):
            self.assertTrue(failures.failed(exc), exc)

    def test_answers_the_driver_reads_are_not(self):
        for exc in (_status(400), _status(404), _status(409),
                    _status(412), ValueError('bad json')):
            self.assertFalse(failures.failed(exc), exc)


class TranslatedTest(testtools.TestCase):

    def test_a_failure_leaves_as_store_unavailable_with_its_text(self):
        exc = self.assertRaises(
            storage_errors.ConnectionError, Translated(_status(503)).call)
        self.assertIsInstance(exc, errors.StoreUnavailable)
        self.assertIsInstance(exc, errors.DelayError)
        self.assertNotIsInstance(exc, swiftclient.ClientException)
        self.assertIn('Swift is unavailable: Object GET failed', str(exc))
        self.assertTrue(exc.__suppress_context__)

    def test_an_answer_leaves_as_it_was(self):
        self.assertRaises(swiftclient.ClientException,
                          Translated(_status(404)).call)

    def test_a_listing_fails_translated_once_it_runs(self):
        pages = Translated(OSError('reset')).pages()
        self.assertEqual('first', next(pages))
        self.assertRaises(errors.StoreUnavailable, next, pages)

    def test_static_and_class_methods_are_translated(self):
        self.assertRaises(errors.StoreUnavailable, Translated.static,
                          OSError('refused'))
        self.assertRaises(errors.StoreUnavailable, Translated.named,
                          OSError('refused'))

    def test_private_methods_are_not(self):
        self.assertRaises(OSError, Translated(OSError('refused'))._inside)

    def test_the_class_keeps_its_name_and_is_a_subclass(self):
        self.assertEqual('Raising', Translated.__name__)
        self.assertTrue(issubclass(Translated, Raising))


class DriverTest(testtools.TestCase):

    def test_each_class_the_driver_hands_out_is_translated(self):
        for kind in ('message', 'claim', 'subscription', 'push',
                     'schedule', 'metrics', 'history', 'export',
                     'migrate'):
            cls = getattr(driver.DataDriver, kind + '_class')
            self.assertIs(failures.translating,
                          _wrapper_of(cls), kind)
        self.assertIs(failures.translating,
                      _wrapper_of(stages.MessageQueueHandler))


def _wrapper_of(cls):
    """``failures.translating`` if ``cls``'s public methods are wrapped
    by it (each one that ``cls`` itself defines), else None."""
    own = [value for name, value in vars(cls).items()
           if not name.startswith('_')]
    methods = [getattr(v, '__func__', v) for v in own]
    if methods and all(m.__code__ is failures.translating(
            lambda: None).__code__ for m in methods):
        return failures.translating
    return None
