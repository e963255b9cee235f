"""An HTTP reply read whole, as ``requests.Response`` shows one: what the
push client (``push.webhook_http``) and the pipeline's Zaqar client
(``pipeline.connection``) give their callers. No I/O."""

import json


class Reply:
    """``status_code``, ``reason``, ``headers``, ``content``; ``ok`` and
    truth (status below 400), ``text`` and ``json()``."""

    def __init__(self, status, content, reason='', headers=None):
        self.status_code = status
        self.content = content
        self.reason = reason
        self.headers = headers or {}

    @property
    def ok(self):
        return self.status_code < 400

    def __bool__(self):
        return self.ok

    @property
    def text(self):
        return self.content.decode('utf-8', 'replace')

    def json(self):
        return json.loads(self.content)
