import { redactSecrets } from '@cairn/core';
import { describe, expect, it } from 'vitest';
import { nonSecretCorpus } from './non-secret-corpus';
import { leakedCorpusSecrets, secretCorpus } from './secret-corpus';

const corpus = secretCorpus();
const label = (s: (typeof corpus)[number]) => `${s.class} ${s.kind}${s.note ? ` (${s.note})` : ''}`;

/** The places a line ends up in: as written, quoted in markdown, inside JSON (escaped), after other text. */
const contexts: [string, (line: string) => string][] = [
  ['as written', (line) => line],
  ['in a bullet', (line) => `- ran \`${line}\` and it worked`],
  ['inside a JSON string', (line) => JSON.stringify({ stdout: line, exit: 0 })],
  ['after other lines', (line) => `first line\n${line}\nlast line`],
];

describe('the secret corpus', () => {
  it.each(corpus.map((s) => [label(s), s] as const))('%s: redacted whole', (_, secret) => {
    expect(secret.line).toContain(secret.value);
    const result = redactSecrets(secret.line);
    expect(result.found.map((f) => f.kind)).toContain(secret.kind);
    expect(leakedCorpusSecrets(result.text)).toEqual([]);
    // A second pass finds nothing more: a mark is never taken for a secret.
    expect(redactSecrets(result.text).found).toEqual([]);
  });

  it.each(contexts)('no secret survives %s', (_, place) => {
    const leaks = corpus.flatMap((secret) =>
      leakedCorpusSecrets(redactSecrets(place(secret.line)).text).map(
        (v) => `${label(secret)}: ${v}`,
      ),
    );
    expect(leaks).toEqual([]);
  });

  it('no secret survives the whole corpus as one text', () => {
    const dump = corpus.map((s) => s.line).join('\n');
    expect(leakedCorpusSecrets(dump).length).toBeGreaterThanOrEqual(corpus.length - 10);
    expect(leakedCorpusSecrets(redactSecrets(dump).text)).toEqual([]);
  });

  it('covers every class', () => {
    expect([...new Set(corpus.map((s) => s.class))].sort()).toEqual([
      'connection-string',
      'credential-file',
      'flag',
      'http-auth',
      'named-value',
      'private-key',
      'provider',
    ]);
  });
});

describe('the negative corpus', () => {
  it.each(nonSecretCorpus())('keeps %s', (line) => {
    expect(redactSecrets(line)).toEqual({ text: line, found: [], redacted: false });
  });
});
