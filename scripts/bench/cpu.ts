/**
 * The CPU time a page load costs, from Linux's /proc: every Chromium thread's user and system
 * time before and after the load, by process type and thread name, beside the machine's busy
 * time over the load's wall time. A Chrome trace shows when the page's threads were busy, but
 * not how much of that was CPU, nor the threads that draw in software WebGL (SwiftShader's,
 * in the GPU process), which write no trace events.
 */
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { basename } from 'node:path';

/** Thread → CPU ms; a thread is `<process type>: <name>`, digits at the end of its name dropped. */
export type ThreadCpu = Map<string, number>;

/** Clock ticks per second of /proc's times (USER_HZ: 100 on every Linux that Node runs on). */
const TICK_MS = 10;

/**
 * A /proc `stat` line's name and CPU ms (user + system). The name is between the first "(" and
 * the last ")" (it may hold spaces and parentheses); the times are fields 14 and 15.
 */
export function parseStat(line: string): { name: string; cpuMs: number } | undefined {
  const open = line.indexOf('(');
  const close = line.lastIndexOf(')');
  if (open < 0 || close < open) return undefined;
  const fields = line.slice(close + 2).trim().split(/\s+/);
  const user = Number(fields[11]);
  const system = Number(fields[12]);
  if (!Number.isFinite(user) || !Number.isFinite(system)) return undefined;
  return { name: line.slice(open + 1, close), cpuMs: (user + system) * TICK_MS };
}

/** A Chromium process's type, from its command line (`--type=renderer`; none is the browser itself). */
export function processType(cmdline: string): string {
  return /--type=([a-z-]+)/.exec(cmdline)?.[1] ?? 'browser';
}

/** The thread's key: its process type and its name without the trailing number of a pool's threads. */
export function threadKey(type: string, name: string): string {
  return `${type}: ${name.replace(/\d+$/, '').replace(/<\d+>$/, '<n>') || name}`;
}

/** The machine's busy CPU ms so far (user, nice, system, irq and softirq of every core), from /proc/stat. */
export function machineCpuMs(procStat = readFileSync('/proc/stat', 'utf8')): number {
  const line = procStat.split('\n').find((l) => l.startsWith('cpu '));
  if (!line) throw new Error('/proc/stat has no "cpu" line');
  const [user, nice, system, , , irq, softirq] = line.split(/\s+/).slice(1).map(Number);
  return (user! + nice! + system! + irq! + softirq!) * TICK_MS;
}

/** Is this executable Chromium's (Debian's, or a Playwright download's)? */
function isChromium(pid: string): boolean {
  try {
    return ['chromium', 'chrome', 'headless_shell', 'chrome-headless-shell'].includes(basename(readlinkSync(`/proc/${pid}/exe`)));
  } catch {
    return false;
  }
}

/** CPU ms of every thread of every Chromium process on the machine now, by `threadKey`. */
export function chromiumThreadCpu(): ThreadCpu {
  const threads: ThreadCpu = new Map();
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid) || !isChromium(pid)) continue;
    try {
      const type = processType(readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' '));
      for (const tid of readdirSync(`/proc/${pid}/task`)) {
        const stat = parseStat(readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8'));
        if (!stat) continue;
        const key = threadKey(type, stat.name);
        threads.set(key, (threads.get(key) ?? 0) + stat.cpuMs);
      }
    } catch {
      // The process ended meanwhile.
    }
  }
  return threads;
}

/** What each thread spent between two readings (threads that ended meanwhile are lost: their time is not in `after`). */
export function cpuBetween(before: ThreadCpu, after: ThreadCpu): ThreadCpu {
  const spent: ThreadCpu = new Map();
  for (const [key, ms] of after) {
    const delta = ms - (before.get(key) ?? 0);
    if (delta > 0) spent.set(key, delta);
  }
  return spent;
}

/** One page's loads: what each thread spent in each, the machine's busy ms and the wall ms. */
export interface CpuLoads {
  label: string;
  loads: { threads: ThreadCpu; machineMs: number; wallMs: number; idleMs: number }[];
}

const mean = (values: number[]) => (values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length);

/**
 * The report: per page, the mean time to idle, the Chromium threads' CPU and the machine's busy
 * share of its cores over the load; then a table of the threads that spent at least `minMs` on
 * some page, by mean CPU ms per load (most on the last page first).
 */
export function renderCpu(pages: CpuLoads[], cores: number, minMs = 20): string {
  const lines: string[] = [];
  lines.push('| page | loads | time to idle (ms) | Chromium CPU (ms) | CPU / wall | machine busy (of its cores) |', '|---|---:|---:|---:|---:|---:|');
  for (const page of pages) {
    const chromium = mean(page.loads.map((l) => [...l.threads.values()].reduce((a, b) => a + b, 0)));
    const wall = mean(page.loads.map((l) => l.wallMs));
    const busy = mean(page.loads.map((l) => l.machineMs / (cores * l.wallMs)));
    const idle = mean(page.loads.map((l) => l.idleMs));
    lines.push(`| ${page.label} | ${page.loads.length} | ${idle.toFixed(0)} | ${chromium.toFixed(0)} | ${(chromium / wall).toFixed(2)} | ${(busy * 100).toFixed(0)} % of ${cores} |`);
  }
  const perThread = pages.map((page) => {
    const sums = new Map<string, number>();
    for (const load of page.loads) for (const [key, ms] of load.threads) sums.set(key, (sums.get(key) ?? 0) + ms / page.loads.length);
    return sums;
  });
  const keys = [...new Set(perThread.flatMap((m) => [...m.keys()]))].filter((key) => perThread.some((m) => (m.get(key) ?? 0) >= minMs));
  const last = perThread[perThread.length - 1] ?? new Map<string, number>();
  keys.sort((a, b) => (last.get(b) ?? 0) - (last.get(a) ?? 0) || a.localeCompare(b));
  lines.push('', `| thread (CPU ms per load) | ${pages.map((p) => p.label).join(' | ')} |`, `|---|${pages.map(() => '---:').join('|')}|`);
  for (const key of keys) lines.push(`| ${key} | ${perThread.map((m) => (m.get(key) ?? 0).toFixed(0)).join(' | ')} |`);
  return lines.join('\n');
}
