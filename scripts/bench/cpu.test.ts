import { describe, expect, it } from 'vitest';
import { cpuBetween, machineCpuMs, parseStat, processType, renderCpu, threadKey } from './cpu.ts';

// A thread's /proc stat line: utime 123 and stime 45 ticks (fields 14 and 15).
const STAT = '4242 (Thread (x) 7) S 1 4242 4242 0 -1 4194560 1000 0 0 0 123 45 0 0 20 0 12 0 100 1000000 500 18446744073709551615';

describe('the CPU figures from /proc', () => {
  it('reads a thread name with spaces and parentheses, and its user and system time in ms', () => {
    expect(parseStat(STAT)).toEqual({ name: 'Thread (x) 7', cpuMs: 1680 });
    expect(parseStat('garbage')).toBeUndefined();
    expect(parseStat('1 (short) S 1 2')).toBeUndefined();
  });

  it('names a thread by its process type and its name without a pool number', () => {
    expect(processType('/usr/lib/chromium/chromium --type=gpu-process --no-sandbox')).toBe('gpu-process');
    expect(processType('/usr/lib/chromium/chromium --no-sandbox --headless')).toBe('browser');
    expect(threadKey('renderer', 'CompositorTileWorker2')).toBe('renderer: CompositorTileWorker');
    expect(threadKey('gpu-process', 'Thread<01>')).toBe('gpu-process: Thread<n>');
    expect(threadKey('renderer', 'chromium')).toBe('renderer: chromium');
    expect(threadKey('renderer', '42')).toBe('renderer: 42');
  });

  it("counts the machine's busy time: user, nice, system, irq and softirq, not idle or iowait", () => {
    expect(machineCpuMs('cpu  100 2 30 9000 50 4 5 0 0 0\ncpu0 50 1 15 4500 25 2 2 0 0 0\n')).toBe((100 + 2 + 30 + 4 + 5) * 10);
    expect(() => machineCpuMs('intr 1 2 3\n')).toThrow('/proc/stat');
  });

  it('takes what each thread spent between two readings', () => {
    const before = new Map([
      ['renderer: chromium', 100],
      ['gpu-process: Thread<n>', 50],
    ]);
    const after = new Map([
      ['renderer: chromium', 400],
      ['gpu-process: Thread<n>', 50],
      ['renderer: DedicatedWorker thread', 30],
    ]);
    expect(cpuBetween(before, after)).toEqual(
      new Map([
        ['renderer: chromium', 300],
        ['renderer: DedicatedWorker thread', 30],
      ]),
    );
  });

  it('reports each page and its threads by mean CPU per load, the last page’s most first', () => {
    const load = (threads: Record<string, number>, wallMs: number, machineMs: number) => ({ threads: new Map(Object.entries(threads)), wallMs, machineMs, idleMs: wallMs - 10 });
    const report = renderCpu(
      [
        { label: 'no pins', loads: [load({ 'renderer: chromium': 400, 'gpu-process: Thread<n>': 600 }, 1000, 1600), load({ 'renderer: chromium': 600, 'gpu-process: Thread<n>': 400 }, 1000, 1800)] },
        { label: 'pins', loads: [load({ 'renderer: chromium': 1200, 'gpu-process: Thread<n>': 700, 'renderer: Compositor': 5 }, 2000, 3400)] },
      ],
      2,
    );
    const lines = report.split('\n');
    // no pins: 1000 ms of Chromium CPU a load in 1000 ms of wall time, the machine 85 % busy.
    expect(lines[2]).toBe('| no pins | 2 | 990 | 1000 | 1.00 | 85 % of 2 |');
    expect(lines[3]).toBe('| pins | 1 | 1990 | 1905 | 0.95 | 85 % of 2 |');
    expect(lines.slice(5)).toEqual([
      '| thread (CPU ms per load) | no pins | pins |',
      '|---|---:|---:|',
      '| renderer: chromium | 500 | 1200 |',
      '| gpu-process: Thread<n> | 500 | 700 |',
    ]);
  });
});
