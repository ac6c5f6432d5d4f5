#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Write the benchmark's results, from the TAP logs of its boots of the
base and of the patched kernel, as a Markdown page on stdout.

    bench/table.py TAP_LOG...
"""

import sys

from results import SERIES, TIMED, Results

KIB, MIB = 1024, 1024 * 1024

INTRO = """\
# Benchmark: cache maintenance and SYNC cost, base vs patched

Written by `scripts/bench` (`bench/table.py`); do not edit. One run: the
unpatched base and the patched kernel, built from this repository, booted
in turn on QEMU aarch64 (TCG), `BENCH_ROUNDS` times (default 2): base,
the series up to its optional DMA API layer (*baseline*), patched, patched
with `dma_buf_access.sync_by_phys=0`; each time running
`bench/dmabuf-bench` with its importer module `bench/module`.

- Buffers of the system heap, 64 KiB to 64 MiB; S is the buffer size.
- *base*: the unpatched kernel, importers as today (a device job maps and
  unmaps; idle importers keep their mapping; `DMA_BUF_IOCTL_SYNC` for the
  CPU). *patched, legacy*: the same program on the series. *patched,
  explicit*: importers opted in (`dma_buf_set_explicit_access()`, mapped
  once, device access bracketed, device to device hand-offs on a job's
  fence), with the DMA API as it is, every mapping that needs syncs synced
  by the exporter around each device access (*baseline*, the series before
  its optional layer), or with the layer, the dma-buf core maintaining each
  mapping as the DMA API pairs syncs (*portable*, the default where the
  architecture does not declare `ARCH_DMA_SYNC_BY_PHYS`; booted with
  `dma_buf_access.sync_by_phys=0`) or once for all mappings (*by-phys*,
  the default on arm64). *minimum*: what the hand-offs need, by the design
  notes.
- Maintenance (*ops*: cleans and invalidates; *bytes*) is counted per frame
  on the DMA API trace events (`dma_map_sg`, `dma_unmap_sg`,
  `dma_sync_sg_for_device`, `dma_sync_sg_for_cpu`) of the non-coherent faux
  device, over 4 frames after one warm-up frame; attaching and mapping
  before the first frame is not counted. Syncs that maintain nothing (for
  the CPU, of a `TO_DEVICE` mapping) are not ops.
- **Time is indicative only**: QEMU TCG does not model caches, so cache
  maintenance costs what executing its instructions costs. It is given as
  the ratio patched / base of the time per frame, both measured in the same
  run: the fastest of 5 repeats (frames untraced) in any boot of each
  kernel. The devices touch no data and the CPU one byte per page: the time
  is that of the hand-offs.
"""


def fmt_bytes(n):
    if n == 0:
        return '0'
    for unit, name in ((MIB, 'MiB'), (KIB, 'KiB')):
        if n >= unit and n % unit == 0:
            return f'{n // unit:g} {name}'
    return f'{n:.0f} B'


def fmt_range(values, fmt):
    """One value, or the range of values across sizes."""
    values = [v for v in values if v is not None]
    if not values:
        return '—'
    low, high = min(values), max(values)
    return fmt(low) if fmt(low) == fmt(high) else f'{fmt(low)}–{fmt(high)}'


def ratio(r, scenario, size, kernel, mode):
    run, base = r.get(kernel, mode, scenario, size), r.get('base', 'legacy', scenario, size)
    return run['ns'] / base['ns'] if run and base else None


def figure(r, kernel, mode, scenario, size, key):
    run = r.get(kernel, mode, scenario, size)
    return run[key] if run else None


def table(header, rows):
    lines = ['| ' + ' | '.join(header) + ' |',
             '|' + '|'.join('---' for _ in header) + '|']
    lines += ['| ' + ' | '.join(row) + ' |' for row in rows]
    return '\n'.join(lines)


def summary(r):
    """Per scenario, across sizes: ops, bytes in S, time ratios."""
    header = (['scenario', 'what'] +
              [f'ops {label}' for *_, label in SERIES] + ['ops minimum'] +
              [f'bytes {label}' for *_, label in SERIES] + ['bytes minimum'] +
              [f'time {label} / base' for *_, label in TIMED])
    rows = []
    for name, s in r.scenarios.items():
        row = [name, s['what']]
        for kernel, mode, _ in SERIES:
            row.append(fmt_range([figure(r, kernel, mode, name, z, 'ops') for z in r.sizes],
                                 lambda v: f'{v:g}'))
        row.append(str(s['min_ops']))
        for kernel, mode, _ in SERIES:
            row.append(fmt_range([None if figure(r, kernel, mode, name, z, 'bytes') is None
                                  else figure(r, kernel, mode, name, z, 'bytes') / z
                                  for z in r.sizes], lambda v: f'{v:g} S' if v else '0'))
        row.append(f'{s["min_buffers"]} S' if s['min_buffers'] else '0')
        for kernel, mode, _ in TIMED:
            row.append(fmt_range([ratio(r, name, z, kernel, mode) for z in r.sizes],
                                 lambda v: f'{v:.2f}'))
        rows.append(row)
    return table(header, rows)


def per_size(r):
    header = (['scenario', 'size'] +
              [f'ops {label}' for *_, label in SERIES] +
              [f'bytes {label}' for *_, label in SERIES] + ['bytes minimum'] +
              ['base µs per frame'] + [f'{label} / base' for *_, label in TIMED])
    rows = []
    for name, s in r.scenarios.items():
        for z in r.sizes:
            row = [name, fmt_bytes(z)]
            for key, fmt in (('ops', lambda v: f'{v:g}'), ('bytes', fmt_bytes)):
                for kernel, mode, _ in SERIES:
                    v = figure(r, kernel, mode, name, z, key)
                    row.append('—' if v is None else fmt(v))
            row.append(fmt_bytes(s['min_buffers'] * z))
            base = figure(r, 'base', 'legacy', name, z, 'ns')
            row.append('—' if base is None else f'{base / 1000:.1f}')
            for kernel, mode, _ in TIMED:
                v = ratio(r, name, z, kernel, mode)
                row.append('—' if v is None else f'{v:.2f}')
            rows.append(row)
    return table(header, rows)


def memory(r):
    structs = (('dma_buf', 'struct dma_buf'),
               ('dma_buf_attachment', 'struct dma_buf_attachment'),
               ('dma_buf_access',
                'struct dma_buf_access (allocated per buffer of a tracking exporter)'),
               ('dma_buf_attachment_access',
                'struct dma_buf_attachment_access (allocated per attachment of one)'))
    base, patched = r.sizeof.get('base', {}), r.sizeof.get('patched', {})
    rows = []
    for key, label in structs:
        b, p = base.get(key), patched.get(key)
        added = f'{p - b:+d}' if b is not None and p is not None else '—'
        rows.append([label, '—' if not b else str(b), '—' if p is None else str(p), added])
    return table(['bytes (sizeof, arm64)', 'base', 'patched', 'added'], rows)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    r = Results(sys.argv[1:])
    print(INTRO)
    print('## Per frame, all sizes\n')
    print(summary(r))
    print('\n## Memory the series adds\n')
    print(memory(r))
    print('\n## Per frame and size\n')
    print(per_size(r))


if __name__ == '__main__':
    main()
