# SPDX-License-Identifier: GPL-2.0
"""The benchmark's results, as bench/dmabuf-bench.c prints them into the
TAP log of each boot: "# bench:", "# sizeof:" and "# scenario:" lines."""

import re
from pathlib import Path

LINE = re.compile(r'^\s*# (bench|sizeof|scenario): (.*)$')
FIELD = re.compile(r'(\w+)=(\S+)')

# The columns of every table and plot: kernel and mode, as labelled.
# "baseline": the series up to its optional DMA API layer (the DMA API as it
# is); "portable": the patched kernel booted with dma_buf_access.sync_by_phys=0.
SERIES = (('base', 'legacy', 'base'),
          ('patched', 'legacy', 'patched, legacy'),
          ('baseline', 'explicit', 'patched, explicit, baseline'),
          ('portable', 'explicit', 'patched, explicit, portable'),
          ('patched', 'explicit', 'patched, explicit, by-phys'))
# The time columns: runs compared with the base.
TIMED = tuple((kernel, mode, label) for kernel, mode, label in SERIES
              if kernel != 'base')


def fields(text):
    return {key: int(value) if value.isdigit() else value
            for key, value in FIELD.findall(text)}


class Results:
    """runs[(kernel, mode, scenario, size)]: per-frame figures;
    sizeof[kernel]: struct sizes; scenarios[name]: what and minimum.
    A kernel booted more than once keeps its fastest time per run; its
    counts must not differ between boots."""

    def __init__(self, tap_logs):
        self.runs, self.sizeof, self.scenarios = {}, {}, {}
        for log in tap_logs:
            for line in Path(log).read_text(errors='replace').splitlines():
                match = LINE.match(line)
                if match:
                    getattr(self, '_' + match.group(1))(match.group(2))
        self.sizes = sorted({key[3] for key in self.runs})

    def _bench(self, text):
        f = fields(text)
        frames = f['frames']
        key = (f['kernel'], f['mode'], f['scenario'], f['size'])
        run = {
            'ops': (f['cleans'] + f['invalidates']) / frames,
            'bytes': f['bytes'] / frames,
            'empty_syncs': f['empty_syncs'] / frames,
            'ns': float(f['ns_per_frame']),
            'calls': f['calls'],
            'sequence': f['sequence'],
        }
        seen = self.runs.get(key)
        if seen:
            if any(seen[k] != run[k]
                   for k in ('ops', 'bytes', 'empty_syncs', 'calls', 'sequence')):
                raise ValueError(f'{key}: counts differ between boots: {seen}, {run}')
            run['ns'] = min(run['ns'], seen['ns'])
        self.runs[key] = run

    def _sizeof(self, text):
        f = fields(text)
        self.sizeof[f.pop('kernel')] = f

    def _scenario(self, text):
        text, what = text.split(' what=', 1)
        f = fields(text)
        self.scenarios[f['name']] = {'what': what, 'min_ops': f['min_ops'],
                                     'min_buffers': f['min_buffers']}

    def get(self, kernel, mode, scenario, size):
        """The figures of one run, or None if it did not run."""
        return self.runs.get((kernel, mode, scenario, size))
