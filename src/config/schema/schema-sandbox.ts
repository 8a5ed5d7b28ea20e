// The sandbox part of the config schema: how a stdio server is confined (docs/sandbox.md, issue 42).
import { z } from 'zod';

/** A network grant: `host`, `host:port` or `*.example.com` (optionally with `:port`). */
export const NETWORK_ENTRY = /^(\*\.)?[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*(:\d{1,5})?$/;

const PATHS = 'Absolute, or starting with ~/ or ${dataDir}; relative paths are taken from the config file\'s folder.';

/** The sandbox settings of one stdio server, as written. */
export const SandboxObject = z
  .strictObject({
    network: z
      .array(
        z
          .string()
          .regex(NETWORK_ENTRY, 'expected a host, host:port or *.example.com')
          .describe('A host the server may reach: host, host:port or *.example.com.'),
      )
      .default([])
      .describe(
        'Hosts the server may reach, through Carte\'s allowlist proxy (HTTP_PROXY) or, for localhost:PORT, a forwarded port. Default none: no network at all.',
      ),
    allowWrite: z
      .array(z.string().min(1))
      .default([])
      .describe(
        `Paths the server may write, besides its state dir and a private /tmp. ${PATHS} Default none.`,
      ),
    denyRead: z
      .array(z.string().min(1))
      .default([])
      .describe(
        `Paths hidden from the server, beyond the built-in list (~/.ssh, ~/.aws, ~/.gnupg, ~/.kube, ~/.docker, ~/.config/gcloud, browser profiles, Carte's data dir and user config, the loaded config file). ${PATHS} Default none.`,
      ),
    memoryMb: z
      .int()
      .min(16)
      .max(1_048_576)
      .optional()
      .describe('Memory the server and its children may use, in MiB; beyond it the server is stopped. No default: unbounded.'),
    maxProcesses: z
      .int()
      .min(1)
      .max(100_000)
      .optional()
      .describe('Processes and threads the server may run at once; more fail to start. No default: unbounded.'),
    stateDir: z
      .string()
      .min(1)
      .optional()
      .describe(`The server's own writable folder. ${PATHS} Default \${dataDir}/servers/<id>.`),
  })
  .describe('How the server is confined: what it may read, write and reach, and how much it may use.');

/** `true` for the defaults, `false` for none, or the settings. */
export const SandboxSchema = z
  .union([z.boolean(), SandboxObject])
  .describe(
    'Run this stdio server in a sandbox (docs/sandbox.md): true for the defaults (no network, writes only to its state dir and a private /tmp), or the settings. No default: sandbox.default.',
  );

/** The top-level `sandbox` section. */
export const SandboxSectionSchema = z
  .strictObject({
    default: SandboxSchema.default(false).describe(
      'The sandbox of every stdio server that has no "sandbox" key of its own: false, true or the settings. Default false.',
    ),
  })
  .describe('Sandboxing of stdio servers (docs/sandbox.md).');

export type SandboxInput = z.output<typeof SandboxSchema>;
export type SandboxObjectConfig = z.output<typeof SandboxObject>;
