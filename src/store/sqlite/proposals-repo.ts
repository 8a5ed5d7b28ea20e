import { randomBytes } from 'node:crypto';
import { CarteError } from '../../errors.js';
import { prepared, type Db } from './sqlite.js';

/** Where a proposal stands; only `pending` ones wait for a person, and nothing pending is started. */
export const PROPOSAL_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type ProposalStatus = (typeof PROPOSAL_STATUSES)[number];

/** One problem found in a proposal, as config problems are: `{path, message}`. */
export interface ProposalProblem {
  path: string;
  message: string;
}

/** A server proposed for registration (`carte register`), as written, and its decision. */
export interface Proposal {
  /** `prop_` and 10 random base-36 characters. */
  id: string;
  serverId: string;
  /** The server as written (Carte's shape, variables not expanded). */
  config: Record<string, unknown>;
  /** Who proposed it: `cli:<file>`, later `http:<token id>` or `agent:<token id>`. */
  source: string;
  status: ProposalStatus;
  problems: ProposalProblem[];
  /** ISO times. */
  createdAt: string;
  decidedAt?: string;
  decidedBy?: string;
  /** The network hosts the approval granted (a stdio server runs sandboxed with these); absent: none decided. */
  grant?: string[];
}

/** How a decision is recorded: when, and for an approval, the network hosts granted. */
export interface Decision {
  /** Unix epoch milliseconds; now when absent. */
  at?: number;
  grant?: string[];
}

export interface NewProposal {
  serverId: string;
  config: Record<string, unknown>;
  source: string;
  /** Default `pending`; `approved` or `rejected` records a decision made at once (`decidedBy` then required). */
  status?: ProposalStatus;
  decidedBy?: string;
  problems?: ProposalProblem[];
  /** Unix epoch milliseconds; now when absent. */
  at?: number;
  /** With an approval at once: the network hosts granted. */
  grant?: string[];
}

export interface ProposalDbRow {
  id: string;
  server_id: string;
  config: string;
  source: string;
  status: ProposalStatus;
  problems: string;
  created_at: number;
  decided_at: number | null;
  decided_by: string | null;
  network_grant: string | null;
}

const ID_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** Servers proposed for registration and their decisions (issue 15). */
export class ProposalsRepo {
  constructor(protected readonly db: Db) {}

  /** Stores a proposal under a new id and returns it. */
  insert(p: NewProposal): Proposal {
    const status = p.status ?? 'pending';
    if (status !== 'pending' && p.decidedBy === undefined)
      throw new CarteError('internal', `a proposal stored as ${status} needs decidedBy`);
    const at = p.at ?? Date.now();
    const id = newId();
    prepared(
      this.db,
      `INSERT INTO proposals (id, server_id, config, source, status, problems, created_at, decided_at, decided_by, network_grant)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      id,
      p.serverId,
      JSON.stringify(p.config),
      p.source,
      status,
      JSON.stringify(p.problems ?? []),
      at,
      status === 'pending' ? null : at,
      status === 'pending' ? null : p.decidedBy,
      grantText(p.grant),
    );
    return this.get(id)!;
  }

  /** The proposal with this id, or undefined. */
  get(id: string): Proposal | undefined {
    const row = prepared(this.db, 'SELECT * FROM proposals WHERE id = ?').get(id) as
      ProposalDbRow | undefined;
    return row === undefined ? undefined : fromRow(row);
  }

  /** Proposals, oldest first, optionally of one status. */
  list(filter: { status?: ProposalStatus } = {}): Proposal[] {
    const rows = (
      filter.status === undefined
        ? prepared(this.db, 'SELECT * FROM proposals ORDER BY created_at, rowid').all()
        : prepared(this.db, 'SELECT * FROM proposals WHERE status = ? ORDER BY created_at, rowid').all(
            filter.status,
          )
    ) as ProposalDbRow[];
    return rows.map(fromRow);
  }

  /**
   * Approves or rejects a pending proposal and returns it. Throws 'unknown_server' for an unknown id
   * and 'bad_input' when it was already decided (a decision is never changed).
   */
  decide(id: string, status: 'approved' | 'rejected', by: string, d: Decision = {}): Proposal {
    const changed = prepared(
      this.db,
      `UPDATE proposals SET status = ?, decided_at = ?, decided_by = ?, network_grant = ? WHERE id = ? AND status = 'pending'`,
    ).run(status, d.at ?? Date.now(), by, grantText(d.grant), id).changes;
    const p = this.get(id);
    if (p === undefined) throw new CarteError('bad_input', `unknown proposal "${id}"`);
    if (changed === 0)
      throw new CarteError(
        'bad_input',
        `proposal "${id}" was already ${p.status} by ${p.decidedBy ?? 'someone'}`,
      );
    return p;
  }
}

/** The grant as stored: a JSON array, or NULL when none was decided. */
export function grantText(grant: string[] | undefined): string | null {
  return grant === undefined ? null : JSON.stringify(grant);
}

/** 10 base-36 characters (51 bits): unguessable enough that ids are not enumerable. */
export function newId(): string {
  const bytes = randomBytes(10);
  return `prop_${[...bytes].map((b) => ID_ALPHABET[b % ID_ALPHABET.length]).join('')}`;
}

export function fromRow(r: ProposalDbRow): Proposal {
  return {
    id: r.id,
    serverId: r.server_id,
    config: JSON.parse(r.config) as Record<string, unknown>,
    source: r.source,
    status: r.status,
    problems: JSON.parse(r.problems) as ProposalProblem[],
    createdAt: new Date(r.created_at).toISOString(),
    ...(r.decided_at === null ? {} : { decidedAt: new Date(r.decided_at).toISOString() }),
    ...(r.decided_by === null ? {} : { decidedBy: r.decided_by }),
    ...(r.network_grant === null ? {} : { grant: JSON.parse(r.network_grant) as string[] }),
  };
}
