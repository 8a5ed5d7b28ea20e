// An upstream's form elicitation during a tool call (MCP 2025-11-25 `elicitation/create`, form
// mode; SEP-1034 defaults). A connection declares form elicitation only when its gateway can answer
// one (ConnectOptions.elicitation), and each call brings its own answerer (CallOptions.elicit: the
// CLI's prompt or `--yes`). A 2025-era request does not say which call it belongs to, so it goes to
// the call in flight when there is exactly one; with none, several, or one without an answerer, it
// is declined. URL mode is never declared here, so the SDK refuses it before this sees it.
import type { Client } from '@modelcontextprotocol/client';

/** The primitive values a form field may hold (MCP `PrimitiveSchemaDefinition`). */
export type FormValue = string | number | boolean | string[];

/** What an upstream asked: its message and the flat object schema of the fields it wants. */
export interface FormElicitation {
  serverId: string;
  message: string;
  requestedSchema: {
    type: 'object';
    properties: Record<string, Record<string, unknown>>;
    required?: string[];
  };
}

/** The answer: accept (with the fields' values), decline, or cancel (MCP `ElicitResult`). */
export interface ElicitationAnswer {
  action: 'accept' | 'decline' | 'cancel';
  content?: Record<string, FormValue>;
}

/** Answers one form elicitation; `signal` aborts when the call it came with ends. */
export type Elicitor = (request: FormElicitation, signal?: AbortSignal) => Promise<ElicitationAnswer>;

/** What a client built for a gateway that answers form elicitations declares (MCP `ClientCapabilities`). */
export const FORM_ELICITATION = { elicitation: { form: {} } } as const;

interface InFlight {
  elicit?: Elicitor;
  signal?: AbortSignal;
}

/** The calls in flight on one connection, and the handler that routes an upstream's elicitation to one. */
export class CallElicitations {
  private readonly calls = new Set<InFlight>();

  constructor(private readonly serverId: string) {}

  /** Counts a call in flight until the returned function is called. */
  track(elicit: Elicitor | undefined, signal: AbortSignal | undefined): () => void {
    const call: InFlight = { ...(elicit ? { elicit } : {}), ...(signal ? { signal } : {}) };
    this.calls.add(call);
    return () => this.calls.delete(call);
  }

  /** Sets the client's `elicitation/create` handler (the SDK validates the request and the answer). */
  install(client: Client): void {
    client.setRequestHandler(
      'elicitation/create',
      async (request): Promise<{ [k: string]: unknown } & ElicitationAnswer> => {
        const params = request.params as { mode?: string; message?: unknown; requestedSchema?: unknown };
        const only = this.calls.size === 1 ? [...this.calls][0] : undefined;
        if (params.mode === 'url' || !only?.elicit) return { action: 'decline' };
        const asked: FormElicitation = {
          serverId: this.serverId,
          message: typeof params.message === 'string' ? params.message : '',
          requestedSchema: params.requestedSchema as FormElicitation['requestedSchema'],
        };
        const answer = await only.elicit(asked, only.signal);
        return answer.action === 'accept'
          ? { action: 'accept', content: answer.content ?? {} }
          : { action: answer.action };
      },
    );
  }
}
