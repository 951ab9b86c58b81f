/**
 * Writes a Mermaid `stateDiagram-v2` of each control machine to `docs/machines/<name>.md`,
 * drawn from the machine definitions themselves: the script walks `machine.root` and every
 * state node's transitions, so a diagram cannot say anything the machine does not do.
 *
 * What is drawn:
 * - every state, nested states inside their parent, the initial state of each level from `[*]`;
 * - every transition that changes state, labelled with its event and guard: `geolocate.click
 *   [isTracking]`, `after oneShotFinish` for a named delay, `checkSupport done` / `checkSupport
 *   error` for an invoked actor's result, `always [isNarrow]` for an eventless transition;
 * - transitions that keep the state but run actions, as a loop on the state;
 * - a transition declared on the machine itself (it applies in every state) from each top-level
 *   state that does not handle that event on its own;
 * - the actors a state invokes, and a state's `description`, inside the state's box.
 *
 * `scripts/machine-diagrams.test.ts` renders the diagrams in memory and fails, naming the file,
 * when a committed one is stale. Run with `npm run machines:diagrams`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { AnyStateMachine, AnyStateNode, AnyTransitionDefinition } from 'xstate';
import { attributionMachine } from '../src/machines/attribution.machine.ts';
import { cameraMachine } from '../src/machines/camera.machine.ts';
import { geolocateMachine } from '../src/machines/geolocate.machine.ts';

/** The machines that get a diagram, by the name of their file in `src/machines`. */
export const MACHINES: Readonly<Record<string, AnyStateMachine>> = {
  geolocate: geolocateMachine,
  attribution: attributionMachine,
  camera: cameraMachine,
};

/** Where the diagrams are written. */
export const DIAGRAM_DIR = fileURLToPath(new URL('../docs/machines/', import.meta.url));

const INDENT = '  ';

/** A Mermaid state id: the node's path below the root, joined with underscores. */
function stateId(node: AnyStateNode): string {
  return node.path.map((part) => part.replace(/[^A-Za-z0-9]/g, '_')).join('_');
}

/** The words on a transition's arrow. */
function transitionLabel(transition: AnyTransitionDefinition, source: AnyStateNode): string {
  const event = eventLabel(transition.eventType, source);
  const guard = guardLabel(transition.guard);
  return guard === undefined ? event : `${event} [${guard}]`;
}

function eventLabel(eventType: string, source: AnyStateNode): string {
  if (eventType === '') return 'always';
  const delayed = source.after.find((transition) => transition.eventType === eventType);
  if (delayed !== undefined) {
    return typeof delayed.delay === 'number' ? `after ${delayed.delay} ms` : `after ${String(delayed.delay)}`;
  }
  const done = /^xstate\.done\.actor\.(.+)$/.exec(eventType);
  if (done?.[1] !== undefined) return `${done[1]} done`;
  const error = /^xstate\.error\.actor\.(.+)$/.exec(eventType);
  if (error?.[1] !== undefined) return `${error[1]} error`;
  return eventType;
}

function guardLabel(guard: unknown): string | undefined {
  if (guard === undefined) return undefined;
  if (typeof guard === 'string') return guard;
  if (typeof guard === 'object' && guard !== null && 'type' in guard && typeof guard.type === 'string') return guard.type;
  return 'inline guard';
}

/** All transitions declared on a node, eventless ones included, in declaration order. */
function ownTransitions(node: AnyStateNode): AnyTransitionDefinition[] {
  return [...[...node.transitions.values()].flat(), ...(node.always ?? [])];
}

/** Whether a node declares a transition for the event itself. */
function handles(node: AnyStateNode, eventType: string): boolean {
  return node.transitions.has(eventType);
}

/** The arrow lines for one transition taken from `source`, or none when it does nothing. */
function arrows(transition: AnyTransitionDefinition, source: AnyStateNode): string[] {
  const label = transitionLabel(transition, source);
  const targets = transition.target ?? [];
  if (targets.length === 0) {
    return transition.actions.length === 0 ? [] : [`${stateId(source)} --> ${stateId(source)}: ${label}`];
  }
  return targets.map((target) => `${stateId(source)} --> ${stateId(target)}: ${label}`);
}

/** The invoked actors' names, for the state's box. */
function invokedActors(node: AnyStateNode): string[] {
  return node.invoke.map((definition) => (typeof definition.src === 'string' ? definition.src : definition.id));
}

/** Lines for a node's children, their transitions and their own children, at one nesting level. */
function renderLevel(parent: AnyStateNode, depth: number, inherited: AnyTransitionDefinition[]): string[] {
  const pad = INDENT.repeat(depth);
  const lines: string[] = [];
  const children = Object.values(parent.states) as AnyStateNode[];
  const initial = parent.initial.target[0];
  if (initial !== undefined) lines.push(`${pad}[*] --> ${stateId(initial)}`);
  for (const child of children) {
    const id = stateId(child);
    if (child.type === 'compound' || child.type === 'parallel') {
      lines.push(`${pad}state "${child.key}" as ${id} {`);
      lines.push(...renderLevel(child, depth + 1, []));
      lines.push(`${pad}}`);
    } else {
      lines.push(`${pad}state "${child.key}" as ${id}`);
    }
    for (const actor of invokedActors(child)) lines.push(`${pad}${id}: invokes ${actor}`);
    if (child.description !== undefined) lines.push(`${pad}${id}: ${child.description}`);
  }
  for (const child of children) {
    for (const transition of ownTransitions(child)) lines.push(...arrows(transition, child).map((line) => pad + line));
    for (const transition of inherited) {
      if (!handles(child, transition.eventType)) lines.push(...arrows(transition, child).map((line) => pad + line));
    }
  }
  return lines;
}

/** The Mermaid `stateDiagram-v2` source of a machine. */
export function toMermaid(machine: AnyStateMachine): string {
  const root = machine.root;
  const lines = ['stateDiagram-v2'];
  for (const actor of invokedActors(root)) lines.push(`${INDENT}%% The machine invokes ${actor} for its whole life.`);
  lines.push(...renderLevel(root, 1, ownTransitions(root)));
  return lines.join('\n') + '\n';
}

/** The Markdown page of one machine's diagram. */
export function diagramPage(name: string, machine: AnyStateMachine): string {
  return [
    `# The ${name} machine`,
    '',
    `Generated from \`src/machines/${name}.machine.ts\` by \`npm run machines:diagrams\`; do not edit by hand.`,
    '',
    '```mermaid',
    toMermaid(machine).trimEnd(),
    '```',
    '',
  ].join('\n');
}

/** Every diagram page, by file name. */
export function renderDiagrams(): Map<string, string> {
  return new Map(Object.entries(MACHINES).map(([name, machine]) => [`${name}.md`, diagramPage(name, machine)]));
}

function main(): void {
  mkdirSync(DIAGRAM_DIR, { recursive: true });
  for (const [file, page] of renderDiagrams()) {
    writeFileSync(path.join(DIAGRAM_DIR, file), page);
    console.log(`wrote docs/machines/${file}`);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main();
}
