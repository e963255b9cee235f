"""What ``zaqar-delay-devserver`` prints: code that works as pasted."""

import textwrap

import testtools

from zaqar_delay.cmd import devserver


class ExampleTest(testtools.TestCase):

    def example(self):
        text = devserver.EXAMPLE.format(
            url='http://127.0.0.1:1', hook='http://127.0.0.1:2/hook',
            auth=devserver._auth())
        return textwrap.dedent(text.split(':\n', 1)[1])

    def test_the_noauth_example_is_python(self):
        code = self.example()
        compile(code, 'example', 'exec')
        self.assertIn("'os_project_id': 'demo'", code)
