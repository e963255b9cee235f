"""The queues and projects a command names, looked up before it reads
them, so that a name that matches nothing is an error that says so.

A QUEUE given without ``--project`` is the queue without a project.
Zaqar's v2 API gives every queue one (the ``X-Project-ID`` its clients
send with noauth, their token's project with Keystone), so when there
is no such queue the command asks for ``--project`` (a usage error).
Zaqar knows a project only by its queues: a project without any is
reported as such.
"""

from zaqar.storage import errors as storage_errors

from zaqar_delay import errors


def name(queue, project):
    """How a message names the queue."""
    return ('queue %r of project %r' % (queue, project) if project
            else 'queue %r (no project)' % queue)


def has_queues(controller, project):
    """Whether ``project`` has a queue (one index read)."""
    return bool(list(next(controller.list(project=project, limit=1))))


def metadata(controller, queue, project):
    """The metadata of ``queue`` of ``project`` (None: no project) from
    a queue controller; ``errors.CommandFailure`` when there is no such queue,
    ``errors.UsageFailure`` when ``project`` is None."""
    try:
        return controller.get_metadata(queue, project=project)
    except storage_errors.QueueDoesNotExist:
        pass
    if project is None:
        raise errors.UsageFailure(
            'give --project: there is no queue %r without a project (a '
            'queue\'s project is the X-Project-ID its clients send, or '
            'their Keystone project\'s id)' % queue)
    if not has_queues(controller, project):
        raise errors.CommandFailure('project %r has no queues' % project)
    raise errors.CommandFailure(
        'project %r has no queue %r' % (project, queue))


def check(controller, projects, queues=None):
    """Fail unless every project has a queue and, when ``queues`` are
    named, each of them."""
    for project in projects:
        if queues:
            for queue in queues:
                metadata(controller, queue, project)
        elif not has_queues(controller, project):
            raise errors.CommandFailure('project %r has no queues' % project)
