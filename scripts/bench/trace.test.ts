import { describe, expect, it } from 'vitest';
import { analyseTrace } from './trace.ts';

const MAIN = { pid: 1, tid: 10 };
const WORKER = { pid: 1, tid: 20 };

describe('analyseTrace', () => {
  it('finds the renderer main thread and sums self time by event and by function', () => {
    const trace = {
      traceEvents: [
        { name: 'thread_name', ph: 'M', ...MAIN, ts: 0, args: { name: 'CrRendererMain' } },
        { name: 'thread_name', ph: 'M', ...WORKER, ts: 0, args: { name: 'DedicatedWorker thread' } },
        // A 10 ms task holding a 4 ms function call that holds a 1 ms layout.
        { name: 'RunTask', ph: 'X', ...MAIN, ts: 1000, dur: 10_000 },
        { name: 'FunctionCall', ph: 'X', ...MAIN, ts: 2000, dur: 4000 },
        { name: 'Layout', ph: 'X', ...MAIN, ts: 3000, dur: 1000 },
        { name: 'RunTask', ph: 'X', ...MAIN, ts: 20_000, dur: 5000 },
        // Another thread's task is not the main thread's.
        { name: 'RunTask', ph: 'X', ...WORKER, ts: 0, dur: 99_000 },
        { name: 'Profile', ph: 'P', ...MAIN, ts: 0, id: '0x1', args: { data: { startTime: 0 } } },
        {
          name: 'ProfileChunk',
          ph: 'P',
          ...MAIN,
          ts: 0,
          id: '0x1',
          args: {
            data: {
              cpuProfile: {
                nodes: [
                  { id: 1, callFrame: { functionName: '(root)', url: '' } },
                  { id: 2, callFrame: { functionName: 'parsePins', url: 'http://x/assets/index-abc.js', lineNumber: 4 }, parent: 1 },
                  { id: 3, callFrame: { functionName: '(idle)', url: '' }, parent: 1 },
                ],
                samples: [2, 2, 3, 2],
              },
              timeDeltas: [0, 1000, 2000, 500],
            },
          },
        },
      ],
    };
    const summary = analyseTrace(trace);
    expect(summary.busyMs).toBe(15);
    expect(Object.fromEntries(summary.byEvent)).toEqual({ RunTask: 11, FunctionCall: 3, Layout: 1 });
    // Each sample lasts until the next one; idle time is left out, and so is the last sample.
    expect(summary.byFunction).toEqual([['parsePins (index-abc.js:5)', 3]]);
  });

  it('gives an empty summary for a trace without a renderer main thread', () => {
    expect(analyseTrace([])).toEqual({ busyMs: 0, byEvent: [], byFunction: [] });
  });
});
