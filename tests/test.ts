import { readdirSync, readFileSync } from 'node:fs';
import { test as base } from '@playwright/test';

export { chromium, expect } from '@playwright/test';
export type { Browser, BrowserContext, CDPSession, ConsoleMessage, Locator, Page, Request, Response, Route } from '@playwright/test';

/** Clock ticks per second of /proc's CPU times (USER_HZ: 100 on Linux). */
const TICKS_PER_SECOND = 100;

/**
 * CPU time, in ms, of this worker process and every process below it (its Chromium and the
 * renderers, GPU and utility processes that Chromium starts), counting the children they have
 * already reaped. Null where there is no /proc (not Linux).
 */
export function processTreeCpuMs(root = process.pid): number | null {
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return null;
  }
  const parents = new Map<number, number>();
  const ticks = new Map<number, number>();
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue; // ended while we read
    }
    // The command name (field 2) is in parentheses and may hold spaces: read after its last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields from the 3rd: state ppid … utime(14) stime(15) cutime(16) cstime(17).
    parents.set(Number(name), Number(fields[1]));
    ticks.set(Number(name), Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]));
  }
  const inTree = (pid: number): boolean => {
    for (let at: number | undefined = pid, hops = 0; at !== undefined && at > 1 && hops < 64; at = parents.get(at), hops++) {
      if (at === root) return true;
    }
    return false;
  };
  let total = 0;
  for (const [pid, count] of ticks) if (inTree(pid)) total += count;
  return (total * 1000) / TICKS_PER_SECOND;
}

/**
 * Playwright's `test`, with what each test costs in CPU (this worker and its browser) noted as
 * a `cpu-ms` annotation, which `tests/cost-reporter.ts` adds up at the end of a run. Every spec
 * takes `test` and `expect` from here.
 */
export const test = base.extend<{ cpuCost: void }>({
  cpuCost: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern
    async ({}, use, testInfo) => {
      const before = processTreeCpuMs();
      await use();
      const after = processTreeCpuMs();
      if (before !== null && after !== null) testInfo.annotations.push({ type: 'cpu-ms', description: String(Math.round(after - before)) });
    },
    { auto: true },
  ],
});
