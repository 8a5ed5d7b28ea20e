import { describe, expect, it } from 'vitest';
import { parseClientJson, setSectionMember, setTopLevel } from './json-text.js';

const carte = { carte: { command: 'node', args: ['c.js'] } };

describe('setTopLevel', () => {
  it.each<[string, string, string]>([
    [
      'replaces the value, keeping the other keys and a 2-space indent',
      '{\n  "theme": "dark",\n  "mcpServers": {\n    "a": {"command": "x"}\n  },\n  "z": 1\n}\n',
      '{\n  "theme": "dark",\n  "mcpServers": {\n    "carte": {\n      "command": "node",\n      "args": [\n        "c.js"\n      ]\n    }\n  },\n  "z": 1\n}\n',
    ],
    [
      'a 3-space indent',
      '{\n   "mcpServers": {}\n}',
      '{\n   "mcpServers": {\n      "carte": {\n         "command": "node",\n         "args": [\n            "c.js"\n         ]\n      }\n   }\n}',
    ],
    [
      'tabs and CRLF line ends',
      '{\r\n\t"mcpServers": {"a": 1}\r\n}\r\n',
      '{\r\n\t"mcpServers": {\r\n\t\t"carte": {\r\n\t\t\t"command": "node",\r\n\t\t\t"args": [\r\n\t\t\t\t"c.js"\r\n\t\t\t]\r\n\t\t}\r\n\t}\r\n}\r\n',
    ],
    [
      'a file on one line stays on one line',
      '{"mcpServers":{"a":{}},"x":[1,2]}',
      '{"mcpServers":{"carte":{"command":"node","args":["c.js"]}},"x":[1,2]}',
    ],
    [
      'comments and trailing commas elsewhere are kept (JSONC)',
      '{\n  // my servers\n  "servers": { "a": {} /* old */ },\n  "inputs": [ ], // none\n}\n',
      '{\n  // my servers\n  "servers": {\n    "carte": {\n      "command": "node",\n      "args": [\n        "c.js"\n      ]\n    }\n  },\n  "inputs": [ ], // none\n}\n',
    ],
    [
      'adds the key after the last one when missing',
      '{\n    "theme": "dark"\n}\n',
      '{\n    "theme": "dark",\n    "mcpServers": {\n        "carte": {\n            "command": "node",\n            "args": [\n                "c.js"\n            ]\n        }\n    }\n}\n',
    ],
    [
      'adds it to an empty object',
      '{}',
      '{\n  "mcpServers": {\n    "carte": {\n      "command": "node",\n      "args": [\n        "c.js"\n      ]\n    }\n  }\n}',
    ],
  ])('%s', (_, before, after) => {
    const key = before.includes('"servers"') ? 'servers' : 'mcpServers';
    expect(setTopLevel(before, key, carte)).toBe(after);
  });

  it('skips strings and comments holding braces and quotes', () => {
    const text = '{\n  "a": "}\\"{", /* } */ "b": [{"c": "]"}],\n  "mcpServers": {"x": 1}\n}';
    expect(setTopLevel(text, 'mcpServers', {})).toBe(
      '{\n  "a": "}\\"{", /* } */ "b": [{"c": "]"}],\n  "mcpServers": {}\n}',
    );
  });
});

describe('setSectionMember', () => {
  it.each<[string, string, string]>([
    [
      'rewrites one server, indented like its key, and keeps its neighbours and comments',
      '{\n  "mcpServers": {\n    // first\n    "a": {"command": "x"},\n    "carte": {"command": "old"} /* was */\n  }\n}\n',
      '{\n  "mcpServers": {\n    // first\n    "a": {"command": "x"},\n    "carte": {\n      "command": "node",\n      "args": [\n        "c.js"\n      ]\n    } /* was */\n  }\n}\n',
    ],
    [
      'tabs and CRLF line ends',
      '{\r\n\t"servers": {\r\n\t\t"carte": {}\r\n\t}\r\n}\r\n',
      '{\r\n\t"servers": {\r\n\t\t"carte": {\r\n\t\t\t"command": "node",\r\n\t\t\t"args": [\r\n\t\t\t\t"c.js"\r\n\t\t\t]\r\n\t\t}\r\n\t}\r\n}\r\n',
    ],
    [
      'a file on one line stays on one line',
      '{"mcpServers":{"a":1,"carte":{"command":"old"}},"x":2}',
      '{"mcpServers":{"a":1,"carte":{"command":"node","args":["c.js"]}},"x":2}',
    ],
  ])('%s', (_, before, after) => {
    const key = before.includes('"servers"') ? 'servers' : 'mcpServers';
    expect(setSectionMember(before, key, 'carte', carte.carte)).toBe(after);
  });

  it('refuses a member that is not there, as a bug', () => {
    expect(() => setSectionMember('{"mcpServers": {}}', 'mcpServers', 'carte', {})).toThrow(/internal error/);
  });
});

describe('parseClientJson', () => {
  it.each([
    ['{"a": ', /^cannot read "\/c\.json": it is not valid JSON \(line 1, column 7: /],
    ['[1]', /^cannot read "\/c\.json": its top level is not an object$/],
    ['{"a": 1, "a": 2}', /duplicate/],
  ])('refuses %j naming the file', (text, message) => {
    expect(() => parseClientJson('/c.json', text)).toThrow(message);
  });
});
