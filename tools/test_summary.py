"""Print the last stestr run's totals as one line: 'N passed, N failed'.

    python tools/test_summary.py LABEL
"""

import re
import subprocess
import sys


def main(label):
    out = subprocess.run(['stestr', 'last'], capture_output=True,
                         text=True).stdout
    counts = {}
    for name in ('Passed', 'Failed', 'Skipped'):
        found = re.findall(r'- %s: (\d+)' % name, out)
        counts[name] = int(found[-1]) if found else 0
    print('%s: %d passed, %d failed, %d skipped' % (
        label, counts['Passed'], counts['Failed'], counts['Skipped']))
    return 1 if counts['Failed'] or not counts['Passed'] else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else 'tests'))
