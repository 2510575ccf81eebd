import { describe, expect, it } from 'vitest';
import { duplicateKey, inferCategory, isDuplicateText, normalizeUnitText } from './unit-text';

describe('category inference (first matching rule wins)', () => {
  it.each([
    ['I prefer tabs over spaces.', 'preference'],
    ['The user likes short answers.', 'preference'],
    ['Always use pnpm, never npm.', 'preference'],
    ['Please never run migrations on Fridays.', 'preference'],
    ['We decided to move the API to Fastify.', 'decision'],
    ['Use pnpm for dependency management in this workspace.', 'decision'],
    ['Going with Postgres 16 for the new service.', 'decision'],
    ['We switched to Vitest last sprint.', 'decision'],
    ['Ana is our maintainer for the billing service.', 'entity'],
    ['Contact ops at ops@example.com for access.', 'entity'],
    ['The dashboard lives at https://grafana.internal.', 'entity'],
    ['The build takes 4 minutes on CI.', 'fact'],
    ['The staging cluster runs Kubernetes.', 'fact'],
    ['Node 20 is required.', 'fact'],
    ['Remember the blue mug.', 'other'],
    ['Hello there', 'other'],
  ])('%s -> %s', (text, category) => {
    expect(inferCategory(text)).toBe(category);
  });
});

describe('normalizeUnitText', () => {
  it('trims, normalizes line endings and NFC, and applies the ---- rule', () => {
    expect(normalizeUnitText('  e\u0301\r\nA ----\r\n----\r\n  ---- \n')).toBe(
      'é\nA ----\n---\n---',
    );
  });
});

describe('duplicate rule', () => {
  it('matches equal keys and near-equal long texts, not short overlaps', () => {
    expect(duplicateKey('Hello, World!')).toBe('hello world');
    expect(isDuplicateText('Deploy on Tuesdays.', 'deploy on tuesdays')).toBe(true);
    expect(isDuplicateText('Deploy on Tuesdays', 'Deploy on Thursdays')).toBe(false);
    expect(
      isDuplicateText(
        'The staging database lives on host db-stage-2 in Frankfurt',
        'Note: the staging database lives on host db-stage-2 in Frankfurt',
      ),
    ).toBe(true);
    expect(
      isDuplicateText(
        'The staging database lives on host db-stage-2 in Frankfurt',
        'The production database lives on host db-prod-1 in Dublin',
      ),
    ).toBe(false);
    expect(isDuplicateText('', '')).toBe(false);
  });
});
