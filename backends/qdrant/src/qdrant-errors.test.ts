import { expectCode } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadQdrant, QDRANT_INSTALL_COMMAND } from './load-qdrant';
import { mapQdrantError } from './qdrant-errors';
import { resolveQdrantOptions } from './qdrant-options';
import { QdrantStore } from './qdrant-store';
import { type RecordingServer, startRecordingServer } from './recording-server.fixture';
import { closedPort } from './test-fixtures';

describe('error mapping through the real client', () => {
  let server: RecordingServer;
  let store: QdrantStore;
  beforeEach(async () => {
    server = await startRecordingServer();
    store = new QdrantStore(resolveQdrantOptions({ url: server.url }, {}), () => {});
  });
  afterEach(() => server.close());

  const cases = [
    [409, 'CONFLICT'],
    [429, 'QUOTA_EXCEEDED'],
    [400, 'INVALID_INPUT'],
    [422, 'INVALID_INPUT'],
    [401, 'INVALID_CONFIG'],
    [403, 'INVALID_CONFIG'],
    [404, 'NOT_FOUND'],
    [500, 'BACKEND_UNAVAILABLE'],
    [503, 'BACKEND_UNAVAILABLE'],
  ] as const;
  for (const [status, code] of cases) {
    it(`HTTP ${status} becomes ${code} with Qdrant's message, the operation and a hint`, async () => {
      server.failNext((call) => call.path.endsWith('/points/delete'), {
        status,
        error: `Wrong input: simulated ${status}`,
      });
      const error = await expectCode(store.deleteWhere({ must: [] }), code);
      expect(error.message).toContain(`HTTP ${status}`);
      expect(error.message).toContain(`simulated ${status}`);
      expect(error.hint).toBeTruthy();
      expect(error.details).toMatchObject({ operation: 'delete', status, url: server.url });
    });
  }

  it('a refused connection is BACKEND_UNAVAILABLE with how to start a server', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const offline = new QdrantStore(resolveQdrantOptions({ url }, {}), () => {});
    const error = await expectCode(offline.count({ must: [] }), 'BACKEND_UNAVAILABLE');
    expect(error.message).toContain(url);
    expect(error.message).toContain('ECONNREFUSED');
    expect(error.hint).toContain('docker run -p 6333:6333 qdrant/qdrant');
    expect(error.details).toMatchObject({ reason: 'ECONNREFUSED', operation: 'count' });
  });

  it('a timeout is BACKEND_UNAVAILABLE', () => {
    const timeout = Object.assign(new Error('aborted'), { name: 'QdrantClientTimeoutError' });
    const error = mapQdrantError(timeout, 'query', 'http://q:6333');
    expect(error.code).toBe('BACKEND_UNAVAILABLE');
    expect(error.details).toMatchObject({ reason: 'timeout' });
  });

  it('a rate limit with Retry-After (the client own error) is QUOTA_EXCEEDED', () => {
    const limited = Object.assign(new Error('Too Many Requests'), {
      name: 'QdrantClientResourceExhaustedError',
    });
    expect(mapQdrantError(limited, 'upsert', 'http://q:6333').code).toBe('QUOTA_EXCEEDED');
  });

  it('a missing client package is BACKEND_UNAVAILABLE naming it and the install command', async () => {
    const error = await expectCode(
      loadQdrant(async () => {
        throw Object.assign(new Error("Cannot find package '@qdrant/js-client-rest'"), {
          code: 'ERR_MODULE_NOT_FOUND',
        });
      }),
      'BACKEND_UNAVAILABLE',
    );
    expect(error.message).toContain('@qdrant/js-client-rest');
    expect(error.hint).toContain(QDRANT_INSTALL_COMMAND);
    expect(error.hint).toContain('npm i @qdrant/js-client-rest');
  });

  it('refuses a collection whose dense size differs from the embedder (never drops it)', async () => {
    server.existing = { size: 384, sparse: true };
    const error = await expectCode(store.ensure(), 'INVALID_CONFIG');
    expect(error.message).toContain('384');
    expect(server.calls.some((c) => c.method === 'DELETE')).toBe(false);
  });
});
