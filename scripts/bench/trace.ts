/**
 * Where a page load's time went, from a Chrome trace (`browser.startTracing` with
 * `traceCategories()`): the renderer main thread's busy time by trace event (self time), and
 * its JavaScript by function (self time, from the V8 CPU profile in the trace).
 */

interface TraceEvent {
  name: string;
  cat?: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  id?: string;
  args?: {
    name?: string;
    data?: {
      cpuProfile?: { nodes?: ProfileNode[]; samples?: number[] };
      timeDeltas?: number[];
    };
  };
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber?: number; columnNumber?: number };
  parent?: number;
}

/** Trace categories for a timeline with the JavaScript profile, as DevTools' Performance panel records. */
export function traceCategories(): string[] {
  return ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'disabled-by-default-v8.cpu_profiler', 'blink.user_timing', 'loading'];
}

export interface TraceSummary {
  /** ms the main thread was busy in tasks. */
  busyMs: number;
  /** Trace event name → self ms on the main thread, most first. */
  byEvent: [string, number][];
  /** `function (file:line)` → self ms of JavaScript on the main thread, most first. */
  byFunction: [string, number][];
}

/** The renderer main thread: the thread named CrRendererMain with the most busy time. */
function mainThread(events: TraceEvent[]): { pid: number; tid: number } | undefined {
  const candidates = events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  let best: { pid: number; tid: number; busy: number } | undefined;
  for (const c of candidates) {
    const busy = events.filter((e) => e.pid === c.pid && e.tid === c.tid && e.ph === 'X' && e.name === 'RunTask').reduce((s, e) => s + (e.dur ?? 0), 0);
    if (!best || busy > best.busy) best = { pid: c.pid, tid: c.tid, busy };
  }
  return best;
}

export function analyseTrace(trace: { traceEvents?: TraceEvent[] } | TraceEvent[]): TraceSummary {
  const events = Array.isArray(trace) ? trace : (trace.traceEvents ?? []);
  const main = mainThread(events);
  if (!main) return { busyMs: 0, byEvent: [], byFunction: [] };
  const onMain = events.filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X' && typeof e.dur === 'number').sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);

  // Self time by event name: each complete event's duration less its children's.
  const self = new Map<string, number>();
  const stack: { end: number; name: string }[] = [];
  let busy = 0;
  for (const e of onMain) {
    while (stack.length && stack[stack.length - 1]!.end <= e.ts) stack.pop();
    const parent = stack[stack.length - 1];
    if (parent) self.set(parent.name, (self.get(parent.name) ?? 0) - e.dur!);
    else if (e.name === 'RunTask') busy += e.dur!;
    self.set(e.name, (self.get(e.name) ?? 0) + e.dur!);
    stack.push({ end: e.ts + e.dur!, name: e.name });
  }

  // JavaScript self time by function, from the chunks of the main thread's CPU profile (a
  // worker's profile has its own id and node ids).
  const mainProfiles = new Set(events.filter((e) => e.name === 'Profile' && e.pid === main.pid && e.tid === main.tid).map((e) => e.id));
  const nodes = new Map<string, Map<number, ProfileNode>>();
  const byFunction = new Map<string, number>();
  for (const e of events) {
    if (e.name !== 'ProfileChunk' || e.id === undefined || !mainProfiles.has(e.id)) continue;
    const profileNodes = nodes.get(e.id) ?? nodes.set(e.id, new Map()).get(e.id)!;
    const profile = e.args?.data?.cpuProfile;
    for (const node of profile?.nodes ?? []) profileNodes.set(node.id, node);
    const samples = profile?.samples ?? [];
    const deltas = e.args?.data?.timeDeltas ?? [];
    for (let i = 0; i < samples.length; i++) {
      const frame = profileNodes.get(samples[i]!)?.callFrame;
      if (!frame || frame.functionName === '(idle)' || frame.functionName === '(program)' || frame.functionName === '(root)') continue;
      const file = frame.url ? frame.url.slice(frame.url.lastIndexOf('/') + 1).replace(/\?.*$/, '') : '';
      const key = `${frame.functionName || '(anonymous)'}${file ? ` (${file}:${(frame.lineNumber ?? 0) + 1})` : ''}`;
      // A sample lasts until the next one (the chunk's last is left out).
      const ms = (deltas[i + 1] ?? 0) / 1000;
      if (ms > 0) byFunction.set(key, (byFunction.get(key) ?? 0) + ms);
    }
  }
  const top = (m: Map<string, number>, scale: number) =>
    [...m]
      .map(([k, v]) => [k, v / scale] as [string, number])
      .filter(([, v]) => v > 0)
      .sort((a, b) => b[1] - a[1]);
  return { busyMs: busy / 1000, byEvent: top(self, 1000), byFunction: top(byFunction, 1) };
}

export function summariseTrace(trace: { traceEvents?: TraceEvent[] } | TraceEvent[], rows = 15): string {
  const s = analyseTrace(trace);
  const fmt = ([name, ms]: [string, number]) => `  ${ms.toFixed(1).padStart(8)} ms  ${name}`;
  return [
    `Main thread busy: ${s.busyMs.toFixed(0)} ms`,
    'Self time by trace event:',
    ...s.byEvent.slice(0, rows).map(fmt),
    'JavaScript self time by function:',
    ...s.byFunction.slice(0, rows).map(fmt),
  ].join('\n');
}
