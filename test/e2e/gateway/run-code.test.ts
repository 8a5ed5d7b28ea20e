import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import ts from 'typescript';
import { createMcpServer } from '../../../src/mcp/index.js';
import { LOCAL_CALLER, projectsFromConfig, type CallerContext } from '../../../src/gateway/index.js';
import { harness, referenceServers, tempDir, type Harness } from '../helpers.js';

// Slow: run_code (issue 43) over the real reference servers: every inner call passes call_tool's
// gates and has its own audit row under the script's.
const PROJECTS = projectsFromConfig({
  projects: {
    work: {
      servers: ['everything', 'filesystem', 'memory'],
      rules: [
        { match: 'everything/get-sum', enabled: false, tags: [] },
        { match: 'memory/delete_entities', class: 'destructive' as const, tags: [] },
      ],
      deny: [],
      confirm: ['destructive'],
    },
  },
});
const WORK: CallerContext = { projectId: 'work', scopes: ['call'] };
const FILES = 80;

const text = (r: Record<string, unknown>) => (r.content as { text: string }[])[0]!.text;

describe('run_code', () => {
  let h: Harness;
  const dir = tempDir().dir;

  beforeAll(async () => {
    h = await harness(referenceServers(dir), dir, { projects: PROJECTS });
    await h.gateway.sync(LOCAL_CALLER);
    for (let i = 0; i < FILES; i++)
      writeFileSync(join(dir, 'sandbox', `n${i}.txt`), `value: ${i}\n${'filler text. '.repeat(40)}\n`);
  });
  afterAll(() => h.close());

  it(`sums ${FILES} files in one script: the right answer, under 2 % of the bytes the calls returned`, async () => {
    const code = `
      const root = (await call('filesystem/list_allowed_directories', {})).content.split('\\n').pop().trim();
      const listing = await call('filesystem/list_directory', { path: root });
      const names = listing.content.split('\\n').filter((l) => l.startsWith('[FILE] n')).map((l) => l.slice(7));
      let sum = 0;
      for (const name of names) {
        const file = await call('filesystem/read_text_file', { path: root + '/' + name });
        sum += Number(/value: (\\d+)/.exec(file.content)[1]);
      }
      console.log('read', names.length);
      return { files: names.length, sum };`;
    const before = Date.now();
    const answer = await h.gateway.runCode(WORK, code);
    expect(JSON.parse(text(answer))).toEqual({
      result: { files: FILES, sum: (FILES * (FILES - 1)) / 2 },
      logs: ['read 80'],
    });
    const rows = await h.store.activity.audit({ since: before, project: 'work' });
    const run = rows.find((r) => r.kind === 'code')!;
    const calls = rows.filter((r) => r.kind === 'call');
    expect(calls).toHaveLength(FILES + 2);
    expect(calls.every((r) => r.parentId === run.id && r.outcome === 'ok')).toBe(true);
    expect(run).toMatchObject({ outcome: 'ok', key: null, parentId: null });
    const returned = calls.reduce((n, r) => n + (r.resultBytes ?? 0), 0);
    expect(text(answer).length / returned).toBeLessThan(0.02);
  });

  it('refuses a rule-hidden tool inside a script as call_tool does, with its message and code', async () => {
    const direct = await h.gateway
      .callTool(WORK, 'everything/get-sum', { a: 1, b: 2 })
      .catch((e: Error) => e);
    const answer = await h.gateway.runCode(
      WORK,
      `try { await call('everything/get-sum', { a: 1, b: 2 }) } catch (e) { return [e.message, e.code] }`,
    );
    expect(JSON.parse(text(answer))).toEqual([(direct as Error).message, 'unknown_tool']);
  });

  it('asks to confirm a destructive inner call, and refuses it where the client cannot ask', async () => {
    const code = `try { await call('memory/delete_entities', { entityNames: ['x'] }); return 'called' } catch (e) { return e.message }`;
    const refused = await h.gateway.runCode(WORK, code);
    expect(JSON.parse(text(refused))).toMatch(
      /needs a person to confirm each such call, and this client cannot ask/,
    );
    const asked: string[] = [];
    const no = await h.gateway.runCode(WORK, code, {
      confirm: (m) => (asked.push(m), Promise.resolve(false)),
    });
    expect(JSON.parse(text(no))).toBe('the call of "memory/delete_entities" was not confirmed');
    const yes = await h.gateway.runCode(WORK, code, { confirm: () => Promise.resolve(true) });
    expect(JSON.parse(text(yes))).toBe('called');
    expect(asked).toEqual(['Allow a destructive call of memory/delete_entities?']);
  });

  it('needs the call scope, and audits the refusal', async () => {
    await expect(
      h.gateway.runCode({ projectId: 'work', scopes: ['search'] }, 'return 1'),
    ).rejects.toMatchObject({
      code: 'denied',
    });
  });

  it('turns a tool error result into a thrown Error with code tool_error', async () => {
    const answer = await h.gateway.runCode(
      WORK,
      `try { await call('filesystem/read_text_file', { path: '/nowhere/at/all' }) } catch (e) { return e.code }`,
    );
    expect(JSON.parse(text(answer))).toBe('tool_error');
  });

  it('cuts a huge answer to maxOutputTokens, saying so', async () => {
    const answer = await h.gateway.runCode(WORK, `return 'word '.repeat(100000)`, {
      limits: { maxOutputTokens: 200 },
    });
    expect(text(answer)).toMatch(
      /\n\[cut: the answer is 500002 characters, past exposure\.code\.maxOutputTokens \(200 tokens\)/,
    );
    expect(text(answer).length).toBeLessThan(2000);
  });

  it('stops an endless loop at timeoutMs and answers the next request at once', async () => {
    await expect(
      h.gateway.runCode(WORK, 'while (true) {}', { limits: { timeoutMs: 300 } }),
    ).rejects.toMatchObject({
      code: 'timeout',
      message: 'the script ran past its time limit of 300 ms (exposure.code.timeoutMs)',
    });
    const rows = await h.store.activity.audit({ kinds: ['code'], limit: 1 });
    expect(rows[0]?.outcome).toBe('timeout');
    const r = await h.gateway.callTool(WORK, 'everything/echo', { message: 'still here' });
    expect(JSON.stringify(r.content)).toContain('still here');
  });

  it('search() gives keys with one-line descriptions', async () => {
    const answer = await h.gateway.runCode(WORK, `return (await search('echo a message', { limit: 2 }))[0]`);
    expect(JSON.parse(text(answer))).toMatchObject({
      key: 'everything/echo',
      description: expect.any(String),
    });
  });

  it('is listed and called through the MCP face when exposure.code.enabled', async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const exposure = { mode: 'meta' as const, maxTools: 50, code: { enabled: true, timeoutMs: 5_000 } };
    await createMcpServer(h.gateway, WORK, { exposure }).connect(serverSide);
    const client = new Client({ name: 'test', version: '0' });
    await client.connect(clientSide);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      'search_tools',
      'browse_tools',
      'describe_tool',
      'call_tool',
      'run_code',
    ]);
    const r = await client.callTool({
      name: 'run_code',
      arguments: { code: `return await call('everything/echo', { message: 'hi' })` },
    });
    expect(JSON.parse(text(r as Record<string, unknown>))).toBe('Echo: hi');
    const bad = await client.callTool({ name: 'run_code', arguments: { code: 'throw new Error("boom")' } });
    expect(bad).toMatchObject({ isError: true, content: [{ text: 'the script failed: Error: boom' }] });
    const logged = await client.callTool({
      name: 'run_code',
      arguments: { code: 'console.log("read", 2, { files: ["a"] }); throw new Error("boom")' },
    });
    expect(logged).toMatchObject({
      isError: true,
      content: [{ text: 'the script failed: Error: boom\n{"logs":["read 2 {\\"files\\":[\\"a\\"]}"]}' }],
    });
    await client.close();
  });

  it('gives tools as TypeScript call() signatures through describe_tool, search_tools and browse_tools', async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const exposure = { mode: 'meta' as const, maxTools: 50, code: { enabled: true } };
    await createMcpServer(h.gateway, WORK, { exposure }).connect(serverSide);
    const client = new Client({ name: 'test', version: '0' });
    await client.connect(clientSide);
    const { tools } = await client.listTools();
    const format = (name: string) =>
      (tools.find((t) => t.name === name)!.inputSchema.properties as Record<string, unknown>).format;
    expect(['search_tools', 'browse_tools', 'describe_tool', 'call_tool'].map(format)).toEqual([
      { const: 'typescript' },
      { const: 'typescript' },
      { const: 'typescript' },
      undefined,
    ]);
    const ask = async (name: string, args: Record<string, unknown>) =>
      text(await client.callTool({ name, arguments: { ...args, format: 'typescript' } }));

    const one = await ask('describe_tool', { key: 'filesystem/read_text_file' });
    expect(one).toMatch(/^\/\*\* Read the complete contents of a file .* \*\/\n/);
    expect(one).toContain('declare function call(key: "filesystem/read_text_file", args: {\n');
    expect(one).toContain('  path: string;\n');
    expect(one).toContain('}): Promise<{ content: string }>;');
    expect(parseErrors(one)).toEqual([]);

    const found = await ask('search_tools', { query: 'read a file', limit: 3 });
    expect(found.split('\n')[0]).toBe('// 3 tools found, best first');
    expect(found.match(/^declare function call\(/gm)).toHaveLength(3);
    expect(parseErrors(found)).toEqual([]);

    const page = await ask('browse_tools', { server: 'memory' });
    expect(page.split('\n')[0]).toBe('// tools 1-9 of 9');
    expect(page.match(/^declare function call\(key: "memory\//gm)).toHaveLength(9);

    const cut = await ask('describe_tool', { key: 'filesystem/read_text_file', maxTokens: 60 });
    expect(cut).toMatch(
      /\n\/\/ cut to fit maxTokens 60: (summary|bare); ask with maxTokens \d+ for all of it$/,
    );

    const bad = await client.callTool({
      name: 'describe_tool',
      arguments: { key: 'memory/read_graph', format: 'ts' },
    });
    expect(bad).toMatchObject({
      isError: true,
      content: [{ text: 'describe_tool: "format" must be "typescript" or "json", not ts' }],
    });
    await client.close();
  });

  it("puts the signature in the tool's filed detail (the REST API and the web tool page)", async () => {
    const d = await h.gateway.describeToolFiled(WORK, 'memory/read_graph');
    expect(d.signature).toMatch(/^\/\*\* Read the entire knowledge graph\b/);
    expect(d.signature).toContain(
      'declare function call(key: "memory/read_graph", args: Record<string, unknown>): Promise<{\n  entities: {\n    /** The name of the entity */\n',
    );
  });
});

/** TypeScript's parser's complaints about `source` (none when it parses). */
function parseErrors(source: string): string[] {
  const file = ts.createSourceFile('s.d.ts', source, ts.ScriptTarget.ES2022, false, ts.ScriptKind.TS);
  return (file as unknown as { parseDiagnostics: ts.Diagnostic[] }).parseDiagnostics.map((d) =>
    ts.flattenDiagnosticMessageText(d.messageText, '\n'),
  );
}
