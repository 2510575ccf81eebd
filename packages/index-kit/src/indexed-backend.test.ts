import {
  describeMemoryBackend,
  expectCode,
  fixtureUnit,
  makeTempProject,
  writeWorkspaceFile,
} from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createIndexedBackend, indexedBackendCapabilities } from './indexed-backend';
import { keywordIndexRegistration } from './keyword-index.fixture';

describeMemoryBackend({
  name: 'indexed (keyword test index)',
  capabilities: indexedBackendCapabilities,
  create: () => createIndexedBackend(keywordIndexRegistration()),
});

describe('createIndexedBackend', () => {
  let root: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    ({ root, cleanup } = await makeTempProject());
    await writeWorkspaceFile(
      root,
      '2026-03-01.md',
      [
        fixtureUnit(1, 'We chose pnpm for the monorepo.', { category: 'decision' }),
        fixtureUnit(2, 'Pnpm lockfiles are reviewed weekly.', { category: 'fact' }),
        fixtureUnit(3, 'Old: yarn ran the monorepo.', { category: 'fact', review: 'deprecated' }),
      ].join('\n'),
    );
  });
  afterEach(() => cleanup());

  it('searches through the index, pushing down what it declares and checking the rest after', async () => {
    const registration = keywordIndexRegistration();
    const backend = createIndexedBackend(registration);
    const hits = await backend.search(root, {
      query: 'pnpm monorepo yarn',
      filters: { kind: ['UNIT'], category: ['fact'] },
    });
    expect(hits.map((h) => h.snippet)).toEqual(['Pnpm lockfiles are reviewed weekly.']);
    expect(hits[0]).toMatchObject({ kind: 'UNIT', category: 'fact', path: '2026-03-01.md' });
    // kind went to the index; category and the deprecated rule were checked on each hit.
    expect(registration.probe.lastFilters()).toEqual({ oneOf: { kind: ['UNIT'] } });
    expect(backend.warnings).toEqual([]);
  });

  it('stores through the file workspace whatever the index', async () => {
    const backend = createIndexedBackend(keywordIndexRegistration(), { getMaxLines: 1 });
    await backend.write(root, 'line one\nline two\n');
    expect((await backend.read(root)).content).toBe('line one\nline two\n');
    expect((await backend.get!(root, { path: 'MEMORY.md' })).content).toBe('line one');
  });

  it('falls back to the fallback backend with one warning when the engine fails', async () => {
    const seen: string[] = [];
    const backend = createIndexedBackend(
      keywordIndexRegistration(),
      { broken: true, onWarning: (m: string) => seen.push(m) },
      { fallback: () => createIndexedBackend(keywordIndexRegistration()) },
    );
    const hits = await backend.search(root, { query: 'pnpm' });
    await backend.search(root, { query: 'pnpm' });
    expect(hits.length).toBe(2);
    expect(backend.warnings).toEqual([
      'Keyword search failed, using the file index instead: BACKEND_UNAVAILABLE: the keyword engine is missing',
    ]);
    expect(seen).toEqual(backend.warnings);
  });

  it('throws the failure when nothing is there to fall back to, and never falls back on bad input', async () => {
    const broken = createIndexedBackend(keywordIndexRegistration(), { broken: true });
    await expectCode(broken.search(root, { query: 'pnpm' }), 'BACKEND_UNAVAILABLE');
    const composed = createIndexedBackend(
      keywordIndexRegistration(),
      { broken: true },
      { fallback: () => createIndexedBackend(keywordIndexRegistration()) },
    );
    await expectCode(composed.search(root, { query: '' }), 'INVALID_INPUT');
    expect(() => createIndexedBackend(keywordIndexRegistration(), { nope: 1 })).toThrow(/nope/);
  });

  it('refreshes, rebuilds and closes the per-root index', async () => {
    const registration = keywordIndexRegistration();
    const backend = createIndexedBackend(registration);
    expect(await backend.refresh(root)).toEqual({ chunks: 3 });
    expect(await backend.rebuild(root)).toEqual({ chunks: 3 });
    expect(registration.probe.created).toHaveLength(1);
    await backend.close();
    await backend.refresh(root);
    expect(registration.probe.created).toHaveLength(2);
  });

  it('tells the index about writes, and a failing index only warns (the markdown is written)', async () => {
    const registration = keywordIndexRegistration();
    const backend = createIndexedBackend(registration);
    await backend.write(root, 'new note\n');
    expect(registration.probe.changed).toEqual(['workspace']);
    const broken = createIndexedBackend(keywordIndexRegistration(), { broken: true });
    await broken.write(root, 'another note\n');
    expect((await broken.read(root)).content).toBe('another note\n');
    expect(broken.warnings).toEqual([
      'Keyword index not updated after a write (the next search retries): BACKEND_UNAVAILABLE: the keyword engine is missing',
    ]);
  });

  it('reads what the index pushes down for these options from capabilitiesFor', async () => {
    const registration = keywordIndexRegistration();
    const narrowed = {
      ...registration,
      capabilitiesFor: () => ({ ...registration.capabilities, filters: [] }),
    };
    await createIndexedBackend(narrowed).search(root, {
      query: 'pnpm',
      filters: { kind: ['UNIT'] },
    });
    expect(registration.probe.lastFilters()).toEqual({ oneOf: {} });
  });
});
