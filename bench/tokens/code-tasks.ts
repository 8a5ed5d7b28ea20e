// The multi-step tasks of the code-mode bench (issue 43: list, filter, read, aggregate), each on
// the demo servers and each done two ways: `steps` is what an agent does with call_tool, one call
// at a time, reading every result; `script` is the run_code an agent would write for the same
// answer, short but not golfed. `size` scales the task; `calls` says how many tool calls it makes.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** One call_tool step: the agent's request goes in, the result's text comes back. */
export type Step = (key: string, args: Record<string, unknown>) => Promise<string>;

export interface CodeTask {
  name: string;
  /** What the agent is asked. */
  ask: string;
  /** Sizes to print; the break-even sweep goes further. */
  sizes: number[];
  calls(size: number): number;
  /** Writes the task's data (files in the sandbox, or the memory graph) before both ways run. */
  setup(ctx: TaskContext, size: number): Promise<void> | void;
  steps(step: Step, size: number): Promise<void>;
  script(size: number): string;
}

export interface TaskContext {
  sandbox: string;
  /** A call made to set the task up: neither way counts it. */
  call(key: string, args: Record<string, unknown>): Promise<void>;
}

function emptySandbox(sandbox: string): void {
  for (const f of readdirSync(sandbox)) rmSync(join(sandbox, f), { recursive: true });
}

const rootOf = (text: string) => text.split('\n').pop()!.trim();

/** The task the bench started with: read n small records, keep the values at or over n/2, sum them. */
const sumValues: CodeTask = {
  name: 'sum values',
  ask: 'list the sandbox, read every nI.txt, sum the values at or over half the count',
  sizes: [3, 4, 10, 40, 80],
  calls: (n) => n + 2,
  setup: ({ sandbox }, n) => {
    emptySandbox(sandbox);
    for (let i = 0; i < n; i++)
      writeFileSync(
        join(sandbox, `n${i}.txt`),
        `value: ${i}\n${'Some notes about this record. '.repeat(12)}\n`,
      );
  },
  steps: async (step) => {
    const root = rootOf(await step('filesystem/list_allowed_directories', {}));
    const names = (await step('filesystem/list_directory', { path: root }))
      .split('\n')
      .filter((l) => l.startsWith('[FILE] n'))
      .map((l) => l.slice(7));
    for (const name of names) await step('filesystem/read_text_file', { path: `${root}/${name}` });
  },
  script: (
    n,
  ) => `const root = (await call('filesystem/list_allowed_directories', {})).content.split('\\n').pop().trim();
const names = (await call('filesystem/list_directory', { path: root })).content.split('\\n')
  .filter((l) => l.startsWith('[FILE] n')).map((l) => l.slice(7));
let sum = 0, count = 0;
for (const name of names) {
  const v = Number(/value: (\\d+)/.exec((await call('filesystem/read_text_file', { path: root + '/' + name })).content)[1]);
  if (v >= ${n / 2}) { sum += v; count++; }
}
return { count, sum };`,
};

/** n application logs spread over month folders, beside notes that do not match `**\/*.log`. */
function writeLogs(sandbox: string, n: number): void {
  emptySandbox(sandbox);
  for (let i = 0; i < n; i++) {
    const dir = join(sandbox, 'logs', `2026-${String(1 + (i % 3)).padStart(2, '0')}`);
    mkdirSync(dir, { recursive: true });
    const lines = [];
    for (let j = 0; j < 24 + (i % 5) * 4; j++) {
      const level = (i + j) % 7 === 0 ? 'ERROR' : (i + j) % 3 === 0 ? 'WARN' : 'INFO';
      lines.push(
        `2026-11-${String(1 + (j % 28)).padStart(2, '0')}T10:${String(j % 60).padStart(2, '0')}:00Z ${level} worker-${j % 4} handled job ${i * 100 + j} in ${(i * 37 + j * 11) % 900} ms`,
      );
    }
    writeFileSync(join(dir, `app-${i}.log`), lines.join('\n') + '\n');
    writeFileSync(join(dir, `notes-${i}.txt`), 'Rotation notes.\n');
  }
}

/** Find files by pattern and sum their sizes, one get_file_info each. */
const logSizes: CodeTask = {
  name: 'log sizes',
  ask: 'find every .log file under the sandbox and sum their sizes',
  sizes: [3, 4, 10, 40],
  calls: (n) => n + 2,
  setup: ({ sandbox }, n) => writeLogs(sandbox, n),
  steps: async (step) => {
    const root = rootOf(await step('filesystem/list_allowed_directories', {}));
    const paths = (await step('filesystem/search_files', { path: root, pattern: '**/*.log' })).split('\n');
    for (const path of paths) await step('filesystem/get_file_info', { path });
  },
  script:
    () => `const root = (await call('filesystem/list_allowed_directories', {})).content.split('\\n').pop().trim();
const paths = (await call('filesystem/search_files', { path: root, pattern: '**/*.log' })).content.split('\\n');
let bytes = 0;
for (const path of paths) {
  const info = (await call('filesystem/get_file_info', { path })).content;
  bytes += Number(/^size: (\\d+)/m.exec(info)[1]);
}
return { files: paths.length, bytes };`,
};

/** Read several files and count the lines that match a word. */
const errorLines: CodeTask = {
  name: 'error lines',
  ask: 'count the ERROR lines in every .log file under the sandbox; which three files have most',
  sizes: [3, 4, 10, 40],
  calls: (n) => n + 2,
  setup: ({ sandbox }, n) => writeLogs(sandbox, n),
  steps: async (step) => {
    const root = rootOf(await step('filesystem/list_allowed_directories', {}));
    const paths = (await step('filesystem/search_files', { path: root, pattern: '**/*.log' })).split('\n');
    for (const path of paths) await step('filesystem/read_text_file', { path });
  },
  script:
    () => `const root = (await call('filesystem/list_allowed_directories', {})).content.split('\\n').pop().trim();
const paths = (await call('filesystem/search_files', { path: root, pattern: '**/*.log' })).content.split('\\n');
const counts = [];
for (const path of paths) {
  const text = (await call('filesystem/read_text_file', { path })).content;
  counts.push({ file: path.slice(root.length + 1), errors: text.split('\\n').filter((l) => l.includes(' ERROR ')).length });
}
counts.sort((a, b) => b.errors - a.errors);
return { total: counts.reduce((s, c) => s + c.errors, 0), top: counts.slice(0, 3) };`,
};

const CHAIN_MAX = 41;
const person = (i: number) => `Person ${i}`;

/**
 * A company's graph on the memory server: a chain of managers, person 0 the CEO, each person on
 * it with three other direct reports; every person has a role, a city and a start year.
 */
async function writeOrg(ctx: TaskContext): Promise<void> {
  const entities = [];
  const relations = [];
  for (let i = 0; i < CHAIN_MAX; i++) {
    const role = i === 0 ? 'CEO' : `level ${i} manager`;
    entities.push({
      name: person(i),
      entityType: 'person',
      observations: [
        `role: ${role}`,
        `city: ${['Paris', 'Lyon', 'Berlin'][i % 3]}`,
        `joined: ${2010 + (i % 15)}`,
      ],
    });
    if (i > 0) relations.push({ from: person(i), to: person(i - 1), relationType: 'reports_to' });
    for (let k = 0; k < 3; k++) {
      const name = `Staff ${i}-${k}`;
      entities.push({ name, entityType: 'person', observations: [`role: engineer`, `city: Lyon`] });
      relations.push({ from: name, to: person(i), relationType: 'reports_to' });
    }
  }
  await ctx.call('memory/create_entities', { entities });
  await ctx.call('memory/create_relations', { relations });
}

/** Walk a knowledge graph: the management chain above one person, one open_nodes per level. */
const managerChain: CodeTask = {
  name: 'manager chain',
  ask: 'on the memory graph, the chain of managers from person N up to the top, with their roles',
  sizes: [4, 5, 11, 40],
  calls: (depth) => depth + 1,
  setup: async (ctx) => {
    rmSync(join(ctx.sandbox, '..', 'memory.jsonl'), { force: true });
    await writeOrg(ctx);
  },
  steps: async (step, depth) => {
    let name: string | undefined = person(depth);
    while (name !== undefined) {
      const graph = JSON.parse(await step('memory/open_nodes', { names: [name] })) as {
        relations: { from: string; to: string; relationType: string }[];
      };
      const from: string = name;
      name = graph.relations.find((r) => r.from === from && r.relationType === 'reports_to')?.to;
    }
  },
  script: (depth) => `const chain = [];
let name = '${person(depth)}';
while (name) {
  const { entities, relations } = await call('memory/open_nodes', { names: [name] });
  const role = entities[0].observations.find((o) => o.startsWith('role: ')).slice(6);
  chain.push({ name, role });
  name = relations.find((r) => r.from === name && r.relationType === 'reports_to')?.to;
}
return chain;`,
};

export const CODE_TASKS: CodeTask[] = [sumValues, logSizes, errorLines, managerChain];
