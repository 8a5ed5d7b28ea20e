import { CarteError } from '../../errors.js';
import type { ProposalsContract } from './contracts.js';
import {
  fromRow,
  grantText,
  newId,
  type Decision,
  type NewProposal,
  type Proposal,
  type ProposalDbRow,
  type ProposalStatus,
} from '../sqlite/proposals-repo.js';
import { changes, row, rows, type Queryable } from './db.js';

/** Proposed servers on PostgreSQL: the contract of ../proposals-repo.ts. */
export class PgProposalsRepo implements ProposalsContract {
  constructor(private readonly q: Queryable) {}

  /** Stores a proposal under a new id and returns it. */
  async insert(p: NewProposal): Promise<Proposal> {
    const status = p.status ?? 'pending';
    if (status !== 'pending' && p.decidedBy === undefined)
      throw new CarteError('internal', `a proposal stored as ${status} needs decidedBy`);
    const at = p.at ?? Date.now();
    const id = newId();
    await changes(
      this.q,
      `INSERT INTO proposals (id, server_id, config, source, status, problems, created_at, decided_at, decided_by, network_grant)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [
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
      ],
    );
    return (await this.get(id))!;
  }

  /** The proposal with this id, or undefined. */
  async get(id: string): Promise<Proposal | undefined> {
    const r = await row<ProposalDbRow>(this.q, 'SELECT * FROM proposals WHERE id = $1', [id]);
    return r === undefined ? undefined : fromRow(r);
  }

  /** Proposals, oldest first (then in insertion order), optionally of one status. */
  async list(filter: { status?: ProposalStatus } = {}): Promise<Proposal[]> {
    const found = await rows<ProposalDbRow>(
      this.q,
      'SELECT * FROM proposals WHERE ($1::text IS NULL OR status = $1::text) ORDER BY created_at, seq',
      [filter.status ?? null],
    );
    return found.map(fromRow);
  }

  /** Approves or rejects a pending proposal (see ProposalsRepo.decide). */
  async decide(id: string, status: 'approved' | 'rejected', by: string, d: Decision = {}): Promise<Proposal> {
    const changed = await changes(
      this.q,
      `UPDATE proposals SET status = $1, decided_at = $2, decided_by = $3, network_grant = $4 WHERE id = $5 AND status = 'pending'`,
      [status, d.at ?? Date.now(), by, grantText(d.grant), id],
    );
    const p = await this.get(id);
    if (p === undefined) throw new CarteError('bad_input', `unknown proposal "${id}"`);
    if (changed === 0)
      throw new CarteError(
        'bad_input',
        `proposal "${id}" was already ${p.status} by ${p.decidedBy ?? 'someone'}`,
      );
    return p;
  }
}
