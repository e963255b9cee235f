"""Where ``redis.delay`` turns a project id into its form in keys.

Zaqar and the tools name a project as its clients sent it; upstream's
controllers build ``<project>.<queue>...`` keys from what they are
given. The driver's controllers are ``scoped`` classes: every method
that takes ``project`` takes it through ``keys.scoped_project`` first,
so upstream's key builders and ours get it encoded. Encoding is
idempotent, so calls from one controller to another pass it on as is.
A management store that does not encode (upstream's redis, MongoDB) is
reached through ``Unscoped``, given each project as Zaqar gave it.
Why: doc/source/redis.rst, "Project ids in keys".
"""

import functools
import inspect
import types

from zaqar.storage import errors

from zaqar_delay.storage.redis import keys


def _scoping(method, at):
    """``method``, given ``project`` (its ``at``-th argument, self being
    the 0th) through ``keys.scoped_project``; a storage error it raises
    names the project as given."""
    @functools.wraps(method)
    def scoping(*args, **kwargs):
        project = None
        if 'project' in kwargs:
            project = kwargs['project'] = keys.scoped_project(
                kwargs['project'])
        elif len(args) > at:
            args = list(args)
            project = args[at] = keys.scoped_project(args[at])
        try:
            return method(*args, **kwargs)
        except errors.ExceptionBase as found:
            if project and project != project.raw:
                found.args = tuple(
                    arg.replace('project ' + project, 'project ' +
                                project.raw) if isinstance(arg, str)
                    else arg for arg in found.args)
            raise
    return scoping


def scoped(cls):
    """A subclass of the controller class ``cls`` whose methods (the
    private ones too: the stages call them) take ``project`` scoped,
    but for those ``cls.keyed_projects`` names, which are given it as
    keys hold it."""
    methods = {'__doc__': cls.__doc__, '__module__': cls.__module__,
               'scopes_projects': True}
    for name in dir(cls):
        if name in getattr(cls, 'keyed_projects', ()):
            continue
        method = inspect.getattr_static(cls, name)
        if not isinstance(method, types.FunctionType):
            continue
        params = list(inspect.signature(method).parameters)
        if 'project' in params:
            methods[name] = _scoping(method, params.index('project'))
    return type(cls.__name__, (cls,), methods)


def scopes_projects(controller):
    """Whether ``controller`` is of a ``scoped`` class."""
    return getattr(controller, 'scopes_projects', False)


class Unscoped:
    """A queue controller that does not scope projects, as the data
    controllers reach it: each ``keys.Project`` argument is given back
    as Zaqar gave it. Other attributes are the controller's."""

    def __init__(self, controller):
        self._controller = controller

    def __getattr__(self, name):
        found = getattr(self._controller, name)
        if not callable(found):
            return found

        @functools.wraps(found)
        def unscoping(*args, **kwargs):
            return found(*[keys.unscoped_project(a)
                           if isinstance(a, keys.Project) else a
                           for a in args],
                         **{k: keys.unscoped_project(v)
                            if isinstance(v, keys.Project) else v
                            for k, v in kwargs.items()})
        return unscoping


def queue_controller(control_driver):
    """The management store's queue controller as the data controllers
    reach it (``Unscoped`` unless it scopes projects itself)."""
    found = control_driver.queue_controller
    return found if scopes_projects(found) else Unscoped(found)
