// Import circles in src/, type imports included, at two grains: between files, and between
// folders ("rooms": two rooms that need each other are one room). `npm run lint` runs it.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-file-circle',
      severity: 'error',
      comment: 'two files that import each other (type imports count): move what they share below both',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'no-room-circle',
      severity: 'error',
      scope: 'folder',
      comment: 'two folders that import each other are one room: move what they share below both',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'no-room-to-parent',
      severity: 'error',
      comment:
        'a room imports no file of the folder it sits in (that folder imports the room): move what it needs into a room below',
      from: { path: '^src/(.+)/[^/]+/[^/]+$' },
      to: { path: '^src/$1/[^/]+$' },
    },
    {
      name: 'code-is-a-leaf',
      severity: 'error',
      comment:
        'src/code (the script interpreter) imports only errors.ts: the gateway gives it everything else',
      from: { path: '^src/code/' },
      to: { path: '^src/', pathNot: '^src/(code/|errors\\.ts$)' },
    },
    {
      name: 'only-code-runs-the-interpreter',
      severity: 'error',
      comment: 'only src/code imports QuickJS: the gateway and faces reach it through src/code/index.ts',
      from: { path: '^src/', pathNot: '^src/code/' },
      to: { path: 'node_modules/(quickjs-emscripten|@jitl/)' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.test\\.ts$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
