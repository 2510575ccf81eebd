import { describe, expect, it } from 'vitest';
import { createLocalHttpGuard, tokensEqual } from './local-http-guard';

const token = 'a-token-of-43-characters-aaaaaaaaaaaaaaaaaa';
const guard = createLocalHttpGuard({ token, port: 7377 });
const auth = `Bearer ${token}`;

describe('createLocalHttpGuard', () => {
  it('accepts a loopback Host with the token, with or without its own Origin', () => {
    for (const host of ['127.0.0.1:7377', 'localhost:7377', '[::1]:7377']) {
      expect(guard({ host, authorization: auth })).toEqual({ ok: true });
    }
    for (const origin of ['http://127.0.0.1:7377', 'http://localhost:7377', 'http://[::1]:7377']) {
      expect(guard({ host: 'localhost:7377', origin, authorization: auth })).toEqual({ ok: true });
    }
  });

  it('refuses other origins and hosts with 403, before looking at the token', () => {
    for (const origin of [
      'http://localhost:9999',
      'https://localhost:7377',
      'http://evil.example',
      'null',
    ]) {
      expect(guard({ host: 'localhost:7377', origin, authorization: auth })).toMatchObject({
        ok: false,
        status: 403,
      });
    }
    expect(guard({ host: 'evil.example:7377', authorization: auth })).toMatchObject({
      status: 403,
    });
    expect(guard({ authorization: auth })).toMatchObject({ status: 403 });
  });

  it('refuses a missing or wrong token with 401 and a WWW-Authenticate header', () => {
    for (const authorization of [undefined, 'Bearer nope', token, `Bearer ${token} extra`]) {
      expect(guard({ host: '127.0.0.1:7377', authorization })).toMatchObject({
        ok: false,
        status: 401,
        headers: { 'www-authenticate': expect.stringMatching(/^Bearer/) },
      });
    }
  });

  it('with allowRemote checks the token only; without a token checks Host and Origin only', () => {
    const remote = createLocalHttpGuard({ token, port: 7377, allowRemote: true });
    expect(remote({ host: 'example.com', authorization: auth })).toEqual({ ok: true });
    expect(remote({ host: 'example.com' })).toMatchObject({ status: 401 });
    const open = createLocalHttpGuard({ token: undefined, port: 7377 });
    expect(open({ host: 'localhost:7377' })).toEqual({ ok: true });
    expect(open({ host: 'localhost:7377', origin: 'http://evil.example' })).toMatchObject({
      status: 403,
    });
  });

  it('compares tokens of any length', () => {
    expect(tokensEqual(token, token)).toBe(true);
    expect(tokensEqual(token.slice(1), token)).toBe(false);
    expect(tokensEqual('', token)).toBe(false);
  });
});
