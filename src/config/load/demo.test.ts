import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { demoConfig, describeServerTarget, ServerSchema } from '../index.js';

describe('demoConfig', () => {
  const config = demoConfig('/var/carte');

  it('has the four reference servers', () => {
    expect(Object.keys(config.servers)).toEqual([
      'everything',
      'filesystem',
      'memory',
      'sequential-thinking',
    ]);
  });

  it.each(Object.entries(config.servers))(
    'runs %s with this node from an entry file that exists',
    (_id, server) => {
      if (server.kind !== 'stdio') throw new Error('demo servers are stdio');
      expect(server.command).toBe(process.execPath);
      expect(server.args[0]).toMatch(
        /node_modules[\\/]@modelcontextprotocol[\\/]server-[a-z-]+[\\/]dist[\\/]index\.js$/,
      );
      expect(existsSync(server.args[0]!)).toBe(true);
    },
  );

  it('puts the sandbox and memory file under the data dir', () => {
    expect(config.servers.everything).toMatchObject({ args: [expect.any(String), 'stdio'] });
    expect(config.servers.filesystem).toMatchObject({ args: [expect.any(String), '/var/carte/sandbox'] });
    expect(config.servers.memory).toMatchObject({ env: { MEMORY_FILE_PATH: '/var/carte/memory.jsonl' } });
  });

  it('shows its targets with the data dir filled in', () => {
    expect(describeServerTarget('filesystem', config.servers.filesystem!)).toMatch(/ \/var\/carte\/sandbox$/);
  });

  it('is a valid config by the schema', () => {
    const { kind: _kind, ...written } = config.servers.memory as { kind: string };
    expect(ServerSchema.safeParse(written).success).toBe(true);
  });
});
