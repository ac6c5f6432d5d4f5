#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Plot the bytes of cache maintenance per frame against the buffer size,
one panel per scenario: base, patched (legacy importers, and explicit
importers in either maintenance mode) and the minimum, from the TAP logs of its boots of the base and of the patched
kernel.

    bench/plot.py TAP_LOG... OUT.svg
"""

import math
import sys

import matplotlib

matplotlib.use('Agg')
import matplotlib.pyplot as plt  # noqa: E402

from results import SERIES, Results  # noqa: E402

MIB = 1024 * 1024
STYLES = {'base': dict(color='tab:red', linewidth=4, alpha=0.35),
          'patched, legacy': dict(color='tab:red', linestyle='--', marker='x'),
          'patched, explicit, baseline': dict(color='tab:orange', marker='^'),
          'patched, explicit, portable': dict(color='tab:green', marker='s'),
          'patched, explicit, by-phys': dict(color='tab:blue', marker='o'),
          'minimum': dict(color='black', linestyle=':', marker='.')}


def size_label(size):
    if size == 0:
        return '0'
    for unit, name in ((1024 * MIB, 'GiB'), (MIB, 'MiB'), (1024, 'KiB')):
        if size >= unit:
            return f'{size // unit} {name}'
    return f'{size} B'


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    r = Results(sys.argv[1:-1])
    # Deterministic SVG: same results, same bytes.
    plt.rcParams['svg.hashsalt'] = 'dmabuf-bench'
    cols = 3
    rows = math.ceil(len(r.scenarios) / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(4.2 * cols, 3.4 * rows),
                             sharex=True, sharey=True, squeeze=False)
    for ax, (name, s) in zip(axes.flat, r.scenarios.items()):
        for kernel, mode, label in SERIES:
            points = [(z, r.get(kernel, mode, name, z)) for z in r.sizes]
            points = [(z, run['bytes'] / MIB) for z, run in points if run]  # MiB
            if points:
                ax.plot(*zip(*points), label=label, **STYLES[label])
        ax.plot(r.sizes, [s['min_buffers'] * z / MIB for z in r.sizes],
                label='minimum', **STYLES['minimum'])
        ax.set_title(f'{name}\n{s["what"]}', fontsize=8)
        ax.set_xscale('log', base=2)
        # Linear near 0, so that "nothing" shows.
        ax.set_yscale('symlog', linthresh=1 / 16)
        yticks = [0] + [16 ** k for k in range(-1, 4)]
        ax.set_yticks(yticks, [size_label(int(y * MIB)) for y in yticks], fontsize=7)
        ax.minorticks_off()
        ax.set_xticks(r.sizes, [size_label(z) for z in r.sizes], fontsize=7, rotation=45)
        ax.grid(True, which='major', alpha=0.3)
    for ax in axes.flat[len(r.scenarios):]:
        ax.set_visible(False)
    for ax in axes[:, 0]:
        ax.set_ylabel('maintained per frame')
    for ax in axes[-1, :]:
        ax.set_xlabel('buffer size')
    handles, labels = axes.flat[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc='lower center', ncol=5, frameon=False)
    fig.suptitle('Cache maintenance per frame (DMA API trace events), base vs patched')
    fig.tight_layout(rect=(0, 0.04, 1, 0.97))
    fig.savefig(sys.argv[-1], metadata={'Date': None})


if __name__ == '__main__':
    main()
