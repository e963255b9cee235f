"""``zaqar-delay-manage export``: a store's messages, or the kept
history of its queues, as JSON lines or Parquet (doc/source/pipeline.rst).

Every project named must have queues, and every queue named must be in
each of them (``queues.check``), before anything is written.
"""

import os
import sys

from zaqar_delay import errors
from zaqar_delay.cmd import queues
from zaqar_delay.history import export as history_export
from zaqar_delay.storage import export
from zaqar_delay.storage import history


def _format(args):
    return args.format or ('parquet' if args.output.rstrip('/').endswith(
        '.parquet') else 'json')


def usage(args):
    """What is wrong with the ``export`` arguments (None: nothing)."""
    if _format(args) == 'parquet' and args.output == '-':
        return 'give --output for Parquet'
    return None


def run(args, out):
    """Export as ``args`` say (the ``export`` command's arguments) to
    ``args.output`` or ``out``; the exit status."""
    if _format(args) == 'json':
        return (_export_history if args.history else _export_messages)(
            args, out)
    try:
        from zaqar_delay.pipeline import schemas
        from zaqar_delay.pipeline import writing
    except ImportError as exc:
        raise errors.CommandFailure(
            'Parquet needs the pipeline extra (pip install '
            '\'zaqar-delay[pipeline]\'): %s' % exc) from None
    final, args.output = args.output, args.output.rstrip('/') + '.jsonl'
    try:
        code = (_export_history if args.history else _export_messages)(
            args, out)
        if code == 0:
            count = writing.json_to_parquet(
                [args.output], final, schemas.HISTORY if args.history
                else writing.SNAPSHOT)
            sys.stderr.write('wrote %d records to %s\n' % (count, final))
    finally:
        if os.path.exists(args.output):
            os.unlink(args.output)
    return code


def _export_history(args, out):
    found = history.stores(args.config_file)
    queues.check(found.control.queue_controller, args.project, args.queue)

    def records(project, queue):
        try:
            kept = history.reader(found, queue, project)
        except errors.HistoryError as exc:
            if args.queue:
                raise errors.CommandFailure('%s/%s: %s' % (
                    project, queue, exc)) from None
            sys.stderr.write('%s/%s: %s\n' % (project, queue, exc))
            return None
        return (history_export.record(project, queue, event,
                                      args.with_body)
                for event in kept.events(queue, project, args.since,
                                         args.until))
    return _write(args, out, found.queues, records, 'events')


def _export_messages(args, out):
    try:
        name, control, data = export.load(args.config_file)
    except errors.ExportError as exc:
        raise errors.CommandFailure(str(exc)) from None
    queues.check(control.queue_controller, args.project, args.queue)

    def records(project, queue):
        return export.messages(name, data, queue, project, args.batch,
                               args.with_body)
    return _write(args, out, lambda project: export.queues(control, project),
                  records, 'messages')


def _write(args, out, listed, records, noun):
    """Write ``records(project, queue)`` (None: skip the queue) of each
    queue named, or ``listed(project)``, to ``args.output`` or ``out``;
    count them per queue and in all on stderr."""
    sink = out if args.output == '-' else open(args.output, 'w')
    total = 0
    try:
        for project in args.project:
            for queue in args.queue or listed(project):
                rows = records(project, queue)
                if rows is None:
                    continue
                count = export.write(rows, sink)
                sink.flush()
                sys.stderr.write('%s/%s: %d %s\n' % (
                    project, queue, count, noun))
                total += count
    finally:
        if sink is not out:
            sink.close()
    sys.stderr.write('exported %d %s\n' % (total, noun))
    return 0
