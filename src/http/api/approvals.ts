// What waits for a person (admin): GET /approvals lists pending server proposals and quarantined
// tools; POST approves or rejects a proposal, or releases a quarantined tool. The flow itself is
// the gateway's (src/gateway/approvals.ts), shared with `carte approve|reject`.
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import {
  approveProposal,
  approveQuarantinedTool,
  listApprovals,
  rejectProposal,
  type ApprovalSite,
} from '../../gateway/index.js';
import type { HttpDeps, HttpEnv } from '../shared/types.js';
import { callerOf } from './context.js';
import { AUTH_ERRORS, errors, json, ToolParams } from './schemas.js';

const Problem = z.object({ path: z.string(), message: z.string() });

const ApprovalsSchema = z
  .object({
    proposals: z.array(
      z.object({
        id: z.string(),
        server: z.string(),
        source: z.string(),
        target: z.string().openapi({ description: 'What would run or be reached, secrets masked' }),
        createdAt: z.string(),
        network: z
          .array(z.string())
          .openapi({ description: 'The hosts it asks to reach; only the approval grants them' }),
        problems: z
          .array(Problem)
          .openapi({ description: 'Why it cannot be approved now; empty when it can' }),
      }),
    ),
    quarantined: z.array(
      z.object({
        key: z.string(),
        server: z.string(),
        kind: z.string(),
        reason: z.string(),
        since: z.string(),
        findings: z.array(z.unknown()),
        diff: z.string().optional(),
      }),
    ),
  })
  .openapi('Approvals');

const list = createRoute({
  method: 'get',
  path: '/approvals',
  summary: 'Pending server proposals and quarantined tools (admin)',
  responses: { 200: json(ApprovalsSchema, 'What waits'), ...errors(...AUTH_ERRORS) },
});

const ProposalParams = z.object({
  id: z
    .string()
    .min(1)
    .openapi({ param: { name: 'id', in: 'path' }, example: 'prop_0123456789' }),
});

const approve = createRoute({
  method: 'post',
  path: '/approvals/proposals/{id}/approve',
  summary: 'Approve a proposal: written to the config file, then discovered (admin)',
  request: {
    params: ProposalParams,
    body: {
      required: false,
      content: {
        'application/json': {
          schema: z.object({
            network: z.array(z.string()).max(100).optional().openapi({
              description:
                'Hosts a stdio server may reach (host, host:port, *.example.com); default none: it runs sandboxed with no network',
            }),
          }),
        },
      },
    },
  },
  responses: {
    200: json(
      z.object({
        id: z.string(),
        server: z.string(),
        network: z
          .array(z.string())
          .optional()
          .openapi({ description: 'The hosts granted (a stdio server, sandboxed); absent for a remote one' }),
        discovery: z.object({
          status: z.enum(['success', 'failed', 'needs_sign_in']),
          toolCount: z.number().int(),
          error: z.string().optional(),
        }),
      }),
      'Saved; discovery may still have failed (then its error is here)',
    ),
    ...errors(400, ...AUTH_ERRORS),
  },
});

const reject = createRoute({
  method: 'post',
  path: '/approvals/proposals/{id}/reject',
  summary: 'Reject a proposal; nothing of it ever ran (admin)',
  request: { params: ProposalParams },
  responses: {
    200: json(z.object({ id: z.string(), server: z.string() }), 'Rejected'),
    ...errors(400, ...AUTH_ERRORS),
  },
});

const release = createRoute({
  method: 'post',
  path: '/approvals/tools/{server}/{tool}/approve',
  summary: 'Release a quarantined tool and pin its current content (admin)',
  request: { params: ToolParams },
  responses: {
    200: json(z.object({ key: z.string(), kind: z.string() }), 'Released'),
    ...errors(400, ...AUTH_ERRORS),
  },
});

export function registerApprovals(app: OpenAPIHono<HttpEnv>, deps: HttpDeps): void {
  app.openapi(list, async (c) => c.json(await listApprovals(callerOf(c), site(deps)), 200));
  app.openapi(approve, async (c) => {
    const body = (c.req.header('content-type') ?? '').includes('json') ? c.req.valid('json') : {};
    const grant = body.network ?? [];
    const r = await approveProposal(callerOf(c), site(deps), c.req.valid('param').id, { grant });
    const discovery = {
      status: r.sync?.status ?? 'failed',
      toolCount: r.sync?.toolCount ?? 0,
      ...(r.sync?.status === 'success' ? {} : { error: r.sync?.error ?? 'the server was not discovered' }),
    };
    return c.json({ id: r.id, server: r.server, ...(r.grant ? { network: r.grant } : {}), discovery }, 200);
  });
  app.openapi(reject, async (c) =>
    c.json(await rejectProposal(callerOf(c), deps, c.req.valid('param').id), 200),
  );
  app.openapi(release, async (c) => {
    const { server, tool } = c.req.valid('param');
    // Another project's quarantined tool answers as one not held (src/gateway/approvals.ts).
    const r = await approveQuarantinedTool(callerOf(c), deps, `${server}/${tool}`);
    return c.json({ key: r.key, kind: r.kind }, 200);
  });
}

function site(deps: HttpDeps): ApprovalSite {
  return {
    gateway: deps.gateway,
    store: deps.store,
    env: deps.env ?? {},
    ...(deps.configPath === undefined ? {} : { configPath: deps.configPath }),
    ...(deps.dataDir === undefined ? {} : { dataDir: deps.dataDir }),
  };
}
