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
    sink = out if args.output == '-' else open(args.output, 'w')
    total = 0
    try:
        for project in args.project:
            for queue in args.queue or found.queues(project):
                try:
                    kept = history.reader(found, queue, project)
                except errors.HistoryError as exc:
                    if args.queue:
                        raise errors.CommandFailure('%s/%s: %s' % (
                            project, queue, exc)) from None
                    sys.stderr.write('%s/%s: %s\n' % (project, queue, exc))
                    continue
                count = export.write(
                    (history_export.record(project, queue, event,
                                           args.with_body)
                     for event in kept.events(queue, project, args.since,
                                              args.until)),
                    sink)
                sink.flush()
                sys.stderr.write('%s/%s: %d events\n' % (
                    project, queue, count))
                total += count
    finally:
        if sink is not out:
            sink.close()
    sys.stderr.write('exported %d events\n' % total)
    return 0


def _export_messages(args, out):
    try:
        name, control, data = export.load(args.config_file)
    except errors.ExportError as exc:
        raise errors.CommandFailure(str(exc)) from None
    queues.check(control.queue_controller, args.project, args.queue)
    sink = out if args.output == '-' else open(args.output, 'w')
    total = 0
    try:
        for project in args.project:
            for queue in args.queue or export.queues(control, project):
                count = export.write(export.messages(
                    name, data, queue, project, args.batch,
                    args.with_body), sink)
                sink.flush()
                sys.stderr.write('%s/%s: %d messages\n' % (
                    project, queue, count))
                total += count
    finally:
        if sink is not out:
            sink.close()
    sys.stderr.write('exported %d messages\n' % total)
    return 0
