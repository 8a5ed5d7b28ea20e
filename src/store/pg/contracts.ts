// Each PostgreSQL repository implements its member of Repositories (a class may implement only a
// named type), so the compiler holds it to the SQLite repository's contract.
import type { Repositories } from '../sqlite/api.js';

export type ServersContract = Repositories['servers'];
export type ToolsContract = Repositories['tools'];
export type VectorsContract = Repositories['vectors'];
export type SnapshotsContract = Repositories['snapshots'];
export type ActivityContract = Repositories['activity'];
export type TokensContract = Repositories['tokens'];
export type ProposalsContract = Repositories['proposals'];
export type TrustContract = Repositories['trust'];
export type UpstreamAuthContract = Repositories['upstreamAuth'];
export type RatesContract = Repositories['rates'];
