"""Load the Lua scripts that sit beside this module.

A line ``--- @include "name"`` is replaced by the text of ``name.lua``;
every other script is one atomic command whose header lists its KEYS,
ARGV and return value.
"""

import os
import re

_FOLDER = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                       'scripts')
_INCLUDE = re.compile(r'^--- @include "([a-z_]+)"$', re.MULTILINE)


def source(name):
    """Return the text of script ``name`` with its includes expanded."""
    with open(os.path.join(_FOLDER, name + '.lua')) as script:
        text = script.read()
    return _INCLUDE.sub(lambda match: source(match.group(1)), text)


class Scripts:
    """The registered scripts of one redis client, by name."""

    # Scripts on one queue's index (each includes index.lua), and on
    # the store as a whole.
    QUEUE = ('post', 'claim', 'renew', 'release', 'delete', 'list',
             'reindex', 'dead_letter')
    STORE = ('push_take',)
    NAMES = QUEUE + STORE

    def __init__(self, client):
        self._scripts = {name: client.register_script(source(name))
                         for name in self.NAMES}

    def __getitem__(self, name):
        return self._scripts[name]
