#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Summarize one QEMU test boot: KUnit results from the console log and
kselftest results from the TAP log, both parsed by the kernel's
"kunit.py parse", plus any kernel splat in the console log.

Exits non-zero on a failed or skipped test, a missing expected suite, a
run that did not finish, or a splat. The one skip allowed is of a KUnit
case listed as "timing-skip SUITE:CASE" in an expected file: an upstream
case that skips itself when the host stalls the guest, which says nothing
about the code under test.
"""

import argparse
import collections
import json
import re
import subprocess
import sys
from pathlib import Path

# The first line of every kind of kernel report the harness refuses.
SPLAT = re.compile(
    r'(WARNING:|BUG:|kernel BUG at|Oops|Internal error:|Unable to handle kernel'
    r'|Kernel panic|Call trace:|UBSAN:|ODEBUG:|DMA-API: .*(device driver|disabling)|INFO: possible'
    r'|INFO: task .* blocked|rcu: INFO:|detected stall'
    r'|possible circular locking|inconsistent lock state)')
SPLAT_LINES = 8
CUT_HERE = '[ cut here ]'
END_OF_REPORT = '---[ end trace'
REPORT_MAX_LINES = 200
DONE_MARKER = 'init: all tests done'
SUBTEST = re.compile(r'^ {4}# Subtest: [^:\s]+:(\S+)')
HEAP = re.compile(r'^ {4}# Testing heap: (\S+)')
HEAP_RESULT = re.compile(r'^ {4}(not )?ok \d+\b[^#]*(#\s*SKIP)?', re.I)

Counts = collections.namedtuple('Counts', 'passed failed skipped failures skips',
                                defaults=((), ()))


def kunit_parse(kunit_py, log, json_out):
    """Run kunit.py parse on LOG; return its top-level JSON group or None."""
    with open(json_out.with_suffix('.txt'), 'w') as text:
        subprocess.run([sys.executable, kunit_py, 'parse', f'--json={json_out.resolve()}',
                        str(log.resolve())], stdout=text, stderr=subprocess.STDOUT,
                       check=False)
    try:
        return json.loads(json_out.read_text())
    except (OSError, ValueError):
        return None


def suites(group):
    """Map each suite of a kunit.py JSON group to its Counts."""
    result = {}
    for sub in group.get('sub_groups', []):
        misc = sub['misc']
        failures = tuple(dict.fromkeys(case['name'] for case in sub['test_cases']
                                       if case['status'] not in ('PASS', 'SKIP')))
        skips = tuple(case['name'] for case in sub['test_cases'] if case['status'] == 'SKIP')
        result[sub['name']] = Counts(misc['passed'],
                                     misc['failed'] + misc['crashed'] + misc['errors'],
                                     misc['skipped'], failures, skips)
    # A suite that reported no subtests at all is a bare test case here.
    for case in group.get('test_cases', []):
        status = case['status']
        result[case['name']] = Counts(0, int(status not in ('PASS', 'SKIP')),
                                      int(status == 'SKIP'))
    return result


def heaps(tap_lines):
    """Counts per test and heap, as TEST:HEAP, from the heap tests'
    "Testing heap" notes."""
    result, test, heap = {}, None, None
    for line in tap_lines:
        match = SUBTEST.match(line)
        if match:
            test, heap = match.group(1), None
            continue
        match = HEAP.match(line)
        if match:
            heap = f'{test}:{match.group(1)}'
            result[heap] = Counts(0, 0, 0)
            continue
        match = HEAP_RESULT.match(line)
        if heap and match:
            p, f, s = result[heap][:3]
            if match.group(2):
                s += 1
            elif match.group(1):
                f += 1
            else:
                p += 1
            result[heap] = Counts(p, f, s)
    return result


def splats(console_lines):
    """The first lines of every kernel report in the console log; a report
    runs to its "---[ end trace" line, so its call trace is not another."""
    found, skip_until = [], -1
    for i, line in enumerate(console_lines):
        if i <= skip_until or not (CUT_HERE in line or SPLAT.search(line)):
            continue
        # WARN() prints its message between "cut here" and "WARNING:"
        start = i + 1 if CUT_HERE in line else i
        found.append(console_lines[start:start + SPLAT_LINES])
        skip_until = i + SPLAT_LINES
        for j in range(i, min(i + REPORT_MAX_LINES, len(console_lines))):
            if END_OF_REPORT in console_lines[j]:
                skip_until = j
                break
    return found


def read_expected(paths):
    expected = collections.defaultdict(list)
    for path in paths:
        for line in Path(path).read_text().splitlines():
            if line.strip() and not line.startswith('#'):
                kind, name = line.split()
                expected[kind].append(name)
    return expected


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument('--kunit-py', required=True)
    parser.add_argument('--console', required=True, type=Path)
    parser.add_argument('--tap', required=True, type=Path)
    parser.add_argument('--expected', required=True, action='append',
                        help='a file of expected suites; may be repeated')
    args = parser.parse_args()

    console = args.console.read_text(errors='replace').splitlines()
    tap = args.tap.read_text(errors='replace').splitlines() if args.tap.exists() else []
    logs = args.console.parent
    expected = read_expected(args.expected)
    problems = []

    tables = {'kunit': {}, 'kselftest': {}, 'heap': heaps(tap)}
    for kind, log in (('kunit', args.console), ('kselftest', args.tap)):
        group = kunit_parse(args.kunit_py, log, logs / f'{kind}.json') if log.exists() else None
        if group is None:
            problems.append(f'no {kind} results could be parsed from {log}')
        else:
            tables[kind] = suites(group)

    print(f'{"":2}{"suite":44}{"pass":>6}{"fail":>6}{"skip":>6}')
    for kind, table in tables.items():
        for name, counts in table.items():
            print(f'{"":2}{kind + " " + name:44}{counts.passed:6}{counts.failed:6}{counts.skipped:6}')
            if counts.failed:
                which = f' ({"; ".join(counts.failures)})' if counts.failures else ''
                problems.append(f'{kind} {name}: {counts.failed} failed{which}')
            timing = [case for case in counts.skips
                      if kind == 'kunit' and f'{name}:{case}' in expected['timing-skip']]
            for case in timing:
                print(f'  note: {kind} {name}: {case} skipped on timing (timing-skip)')
            if counts.skipped > len(timing):
                problems.append(f'{kind} {name}: {counts.skipped - len(timing)} skipped')
        for name in expected[kind]:
            if name not in table:
                problems.append(f'{kind} {name}: expected, but not in the results')
            elif not table[name].passed:
                problems.append(f'{kind} {name}: no test passed')

    if not any(DONE_MARKER in line for line in console):
        problems.append(f'the run did not finish ("{DONE_MARKER}" missing from {args.console})')

    found = splats(console)
    for lines in found:
        problems.append('kernel splat in the console log:\n' +
                        '\n'.join('      ' + line for line in lines))

    print(f'  splats: {len(found)}; logs: {logs}')
    for problem in problems:
        print(f'FAIL: {problem}')
    print('RESULT: ' + ('FAIL' if problems else 'PASS'))
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
