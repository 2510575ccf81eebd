import { type MemoryPoolDefinition, memoryQuerySchema, parseInput } from '@cairn/core';
import { describe, expect, it } from 'vitest';
import { eligible, matchesFilters } from './pool-definitions';

const query = (input: Record<string, unknown>) =>
  parseInput(memoryQuerySchema, { agentId: 'main', query: 'deploy', ...input }, 'query');

const notes: MemoryPoolDefinition = { id: 'notes', tier: 'warm', path: 'docs/notes' };

describe('eligible', () => {
  it('answers the tiers asked for (hot and warm by default)', () => {
    expect(eligible(notes, query({}))).toBe(true);
    expect(eligible(notes, query({ tiers: ['cold'] }))).toBe(false);
  });

  it('keeps to the pool ids asked for', () => {
    expect(eligible(notes, query({ poolIds: ['notes'] }))).toBe(true);
    expect(eligible(notes, query({ poolIds: ['workspace'] }))).toBe(false);
  });

  it('answers only the agents and roles a pool lists', () => {
    const limited = { ...notes, agents: ['reviewer'], roles: ['lead'] };
    expect(eligible(limited, query({ agentId: 'reviewer', role: 'lead' }))).toBe(true);
    expect(eligible(limited, query({ agentId: 'main', role: 'lead' }))).toBe(false);
    expect(eligible(limited, query({ agentId: 'reviewer' }))).toBe(false);
  });
});

describe('matchesFilters', () => {
  it('needs every key to equal the value or one of the listed values', () => {
    const metadata = { kind: 'unit', category: 'decision', score: 2 };
    expect(matchesFilters(metadata, undefined)).toBe(true);
    expect(matchesFilters(metadata, { kind: 'unit', category: ['fact', 'decision'] })).toBe(true);
    expect(matchesFilters(metadata, { kind: 'raw' })).toBe(false);
    expect(matchesFilters(metadata, { score: '2' })).toBe(true);
    expect(matchesFilters(metadata, { missing: 'x' })).toBe(false);
  });
});
