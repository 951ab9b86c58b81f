import type { FullResult, Reporter, TestCase, TestResult } from '@playwright/test/reporter';

const SHOWN = 15;

type Cost = { cpuMs: number; wallMs: number; tests: number };

/**
 * Prints, at the end of every Playwright run, the costliest spec files and tests in CPU-seconds
 * (the worker and its browser, from each test's `cpu-ms` annotation: `tests/test.ts`) and wall
 * seconds, so what made the suite slower can be found in any run's log.
 */
export default class CostReporter implements Reporter {
  private readonly byTest = new Map<string, Cost>();
  private readonly byFile = new Map<string, Cost>();
  private started = Date.now();

  onBegin(): void {
    this.started = Date.now();
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    const cpu = result.annotations.find((annotation) => annotation.type === 'cpu-ms');
    const cpuMs = cpu?.description ? Number(cpu.description) : 0;
    const project = test.parent.project()?.name ?? '';
    const file = `${project}: ${test.location.file.replace(/^.*?\/(tests|visual)\//, '$1/')}`;
    add(this.byTest, `${file}:${test.location.line} ${test.title}`, cpuMs, result.duration);
    add(this.byFile, file, cpuMs, result.duration);
  }

  onEnd(result: FullResult): void {
    const tests = [...this.byTest.values()];
    const cpu = tests.reduce((sum, cost) => sum + cost.cpuMs, 0);
    const lines = [
      '',
      `Cost: ${tests.length} tests, ${seconds(cpu)} CPU-s in the workers and their browsers, ${seconds(Date.now() - this.started)} s wall (${result.status})`,
      `The ${SHOWN} costliest files (CPU-s, wall-s summed over tests, tests):`,
      ...top(this.byFile).map(([name, cost]) => `  ${seconds(cost.cpuMs).padStart(7)}  ${seconds(cost.wallMs).padStart(7)}  ${String(cost.tests).padStart(4)}  ${name}`),
      `The ${SHOWN} costliest tests (CPU-s, wall-s):`,
      ...top(this.byTest).map(([name, cost]) => `  ${seconds(cost.cpuMs).padStart(7)}  ${seconds(cost.wallMs).padStart(7)}  ${name}`),
    ];
    console.log(lines.join('\n'));
  }

  printsToStdio(): boolean {
    return false;
  }
}

function add(costs: Map<string, Cost>, key: string, cpuMs: number, wallMs: number): void {
  const cost = costs.get(key) ?? { cpuMs: 0, wallMs: 0, tests: 0 };
  cost.cpuMs += cpuMs;
  cost.wallMs += wallMs;
  cost.tests += 1;
  costs.set(key, cost);
}

function top(costs: Map<string, Cost>): [string, Cost][] {
  return [...costs].sort((a, b) => b[1].cpuMs - a[1].cpuMs || b[1].wallMs - a[1].wallMs).slice(0, SHOWN);
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(1);
}
