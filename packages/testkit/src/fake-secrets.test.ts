import { redactSecrets } from '@cairn/core';
import { describe, expect, it } from 'vitest';
import { fakeSecretDump, fakeSecrets, leakedFakeSecrets } from './fake-secrets';

describe('fake secrets corpus', () => {
  it.each(fakeSecrets().map((s) => [s.kind, s] as const))(
    '%s is redacted whole',
    (kind, secret) => {
      expect(leakedFakeSecrets(secret.line)).toContain(secret.value);
      const result = redactSecrets(secret.line);
      expect(result.found.map((f) => f.kind)).toContain(kind);
      expect(leakedFakeSecrets(result.text)).toEqual([]);
    },
  );

  it('the dump holds every secret, and none survives one pass', () => {
    const dump = fakeSecretDump();
    expect(leakedFakeSecrets(dump)).toHaveLength(fakeSecrets().length);
    expect(leakedFakeSecrets(redactSecrets(dump).text)).toEqual([]);
  });
});
