// Lint rules, including the module boundaries from STYLE.md: faces import only gateway, config
// and errors; only upstream/ speaks MCP as a client or spawns; only store/ touches a database
// driver (better-sqlite3, pg); only mcp/ (and later http/) import the MCP server SDK; folders
// import each other only via index.ts.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const FOLDERS = [
  'config',
  'store',
  'upstream',
  'catalog',
  'search',
  'policy',
  'gateway',
  'mcp',
  'http',
  'cli',
  'patterns',
  'code',
];
const deepImports = FOLDERS.map((f) => ({
  group: [
    `../${f}/*`,
    `../../${f}/*`,
    `../../../${f}/*`,
    `!../${f}/index.js`,
    `!../../${f}/index.js`,
    `!../../../${f}/index.js`,
  ],
  message: `import ${f}/ only through its index.ts`,
}));
const CLIENT_SDK = {
  group: ['@modelcontextprotocol/client', '@modelcontextprotocol/client/*'],
  message: 'only src/upstream speaks MCP as a client',
};
const SERVER_SDK = {
  group: ['@modelcontextprotocol/server', '@modelcontextprotocol/server/*', '@modelcontextprotocol/node'],
  message: 'only src/mcp and src/http serve MCP',
};
const SQLITE = { name: 'better-sqlite3', message: 'only src/store touches the database driver' };
const POSTGRES = { name: 'pg', message: 'only src/store touches the database driver' };
const INTERPRETER = {
  group: ['quickjs-emscripten-core', 'quickjs-emscripten', '@jitl/*'],
  message: 'only src/code runs the script interpreter',
};
const SPAWN = { name: 'node:child_process', message: 'only src/upstream spawns processes' };
const FACES = ['mcp', 'http', 'cli'];
const CORE = ['store', 'upstream', 'catalog', 'search', 'policy', 'gateway', 'config', 'patterns', 'code'];

function restrict({ paths = [], patterns = [] }) {
  return { 'no-restricted-imports': ['error', { paths, patterns: [...deepImports, ...patterns] }] };
}
const coreNoFaces = FACES.map((f) => ({
  group: [`../${f}`, `../${f}/*`, `../../${f}`, `../../${f}/*`, `../../../${f}`, `../../../${f}/*`],
  message: 'core modules never import faces',
}));
// The CLI is also the composition root: `carte serve` starts the MCP face, so cli/ may import mcp/index.js.
const faceOnly = CORE.filter((c) => c !== 'gateway' && c !== 'config').map((c) => ({
  group: [`../${c}/*`, `../../${c}/*`, `../../../${c}/*`],
  message: 'faces import only gateway, config and errors',
}));

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'schema/**',
      'coverage/**',
      'bench/out/**',
      '.dependency-cruiser.cjs',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { project: './tsconfig.check.json', tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/restrict-template-expressions': [
        'error',
        { allowNumber: true, allowBoolean: true },
      ],
    },
  },
  // The web menu runs in the browser: its own project (DOM lib, no node types).
  {
    files: ['web/**/*.ts'],
    languageOptions: {
      parserOptions: { project: './tsconfig.web.json', tsconfigRootDir: import.meta.dirname },
    },
  },
  {
    files: ['src/**/*.ts'],
    rules: restrict({
      paths: [SQLITE, POSTGRES, SPAWN],
      patterns: [CLIENT_SDK, SERVER_SDK, INTERPRETER, ...coreNoFaces],
    }),
  },
  {
    files: ['src/upstream/**/*.ts'],
    rules: restrict({ patterns: [SERVER_SDK, INTERPRETER, ...coreNoFaces] }),
  },
  // The interpreter's module is a leaf: it imports errors and its packages, nothing of Carte's core.
  {
    files: ['src/code/**/*.ts'],
    rules: restrict({
      paths: [SQLITE, POSTGRES, SPAWN],
      patterns: [
        CLIENT_SDK,
        SERVER_SDK,
        ...coreNoFaces,
        {
          group: CORE.filter((c) => c !== 'code').map((c) => `../${c}/*`),
          message: 'code/ imports only errors',
        },
      ],
    }),
  },
  {
    files: ['src/store/**/*.ts'],
    rules: restrict({ paths: [SPAWN], patterns: [CLIENT_SDK, SERVER_SDK, INTERPRETER, ...coreNoFaces] }),
  },
  {
    files: ['src/mcp/**/*.ts', 'src/http/**/*.ts'],
    rules: restrict({ paths: [SQLITE, POSTGRES, SPAWN], patterns: [CLIENT_SDK, INTERPRETER, ...faceOnly] }),
  },
  {
    files: ['src/cli/**/*.ts'],
    rules: restrict({ paths: [SQLITE, POSTGRES, SPAWN], patterns: [CLIENT_SDK, INTERPRETER, ...faceOnly] }),
  },
  {
    files: ['**/*.test.ts', 'test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      'no-restricted-imports': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    files: ['**/*.mjs', '**/*.js'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      globals: Object.fromEntries(
        [
          'process',
          'console',
          'Buffer',
          'URL',
          'setTimeout',
          'clearTimeout',
          'setInterval',
          'clearInterval',
          'Response',
          'Request',
          'TextEncoder',
          'TextDecoder',
          'ReadableStream',
          'AbortController',
          'fetch',
        ].map((g) => [g, 'readonly']),
      ),
    },
  },
);
