/** The API's answers, as far as the page reads them. */

export interface Unit {
  memoryId: string;
  kind: 'UNIT' | 'RAW';
  path: string;
  startLine: number;
  endLine: number;
  text: string;
  category?: string;
  review?: 'draft' | 'approved' | 'deprecated';
  createdAt?: string;
  updatedAt?: string;
  source?: string;
  staleness?: string;
}

export interface FixPattern {
  id: string;
  state: 'candidate' | 'verified' | 'deprecated';
  normalized: string;
  family: string;
  stepsKey: string;
  steps: { kind: string; text?: string; command?: string; path?: string }[];
  reason: string | null;
  applied: number;
  succeeded: number;
  failed: number;
  updatedAt: string;
  runs?: { role: string; agentId: string; sessionKey: string; at: string }[];
}

export interface PackItem {
  id: string;
  plane: string;
  text: string;
  trustClass: string;
  why: string;
  tokenCost: number;
  provenance: { kind: string; id: string; file?: string; line?: number };
}

export interface Receipt {
  receiptId: string;
  event: string;
  agentId: string;
  sessionKey: string;
  threadKey: string;
  epoch: number;
  at: string;
  tokens: number;
  budgetTokens: number;
  pack: {
    query: string;
    items: PackItem[];
    excluded: {
      id: string;
      plane: string;
      reason: string;
      tokenCost: number;
      duplicateOf?: string;
    }[];
    planes: { plane: string; status: string; reason?: string }[];
    budget: {
      total: number;
      used: number;
      planes: { plane: string; share: number; used: number }[];
    };
  };
}

export interface TemporalNode {
  id: string;
  agentId: string;
  kind: string;
  threadKey: string;
  sessionKey: string | null;
  depth: number;
  startAt: string;
  endAt: string;
  source: string;
  text: string;
}

export interface Proposal {
  id: string;
  kind: string;
  unitIds: string[];
  summary: string;
  before: string;
  after: string;
  evidence: string[];
  state: string;
}

export interface StaleUnit {
  memoryId: string;
  state: string;
  anchor: { path: string; symbol?: string };
}
