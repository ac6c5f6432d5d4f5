#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check that legacy importers see exactly the base kernel's DMA API calls:
for every scenario and size run in legacy mode on the base and on each
kernel of the series, the same calls in the same order (event, device,
direction, attributes, bytes).
Prints one line per run; exits 1 if any differs or is missing.

    bench/legacy-sequences.py TAP_LOG...
"""

import sys

from results import Results


def main(tap_logs):
    results = Results(tap_logs)
    runs = sorted({(kernel, scenario, size)
                   for kernel, mode, scenario, size in results.runs
                   if mode == 'legacy' and kernel != 'base'})
    differ = 0
    for kernel, scenario, size in runs:
        base = results.get('base', 'legacy', scenario, size)
        patched = results.get(kernel, 'legacy', scenario, size)
        if not base:
            verdict = 'MISSING: did not run on the base'
        elif (base['calls'], base['sequence']) != (patched['calls'], patched['sequence']):
            verdict = (f"DIFFERENT: base {base['calls']} calls {base['sequence']}, "
                       f"{kernel} {patched['calls']} calls {patched['sequence']}")
        else:
            verdict = f"same {base['calls']} calls, sequence {base['sequence']}"
        differ += not verdict.startswith('same')
        print(f'{kernel:9} {scenario:24} {size // 1024:6} KiB  {verdict}')
    print(f'{len(runs)} legacy runs, {differ} not identical to the base kernel')
    return 1 if differ or not runs else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
