import { describe, expect, it } from 'vitest';
import { closestName, didYouMean } from './suggest';

const NAMES = ['search', 'status', 'history', 'install', 'init', 'expand', 'review'];

describe('suggestions', () => {
  it('names the closest command for a typo, a swap or a start', () => {
    expect(closestName('serach', NAMES)).toBe('search');
    expect(closestName('stauts', NAMES)).toBe('status');
    expect(closestName('histroy', NAMES)).toBe('history');
    expect(closestName('exp', NAMES)).toBe('expand');
    expect(closestName('SEARCH', NAMES)).toBe('search');
  });

  it('suggests nothing when nothing is close', () => {
    expect(closestName('deploy', NAMES)).toBeUndefined();
    expect(closestName('', NAMES)).toBeUndefined();
    expect(closestName('in', NAMES)).toBeUndefined();
    expect(didYouMean('zzzzzz', NAMES)).toBe('');
    expect(didYouMean('lmit', ['limit'], '--')).toBe(': did you mean "--limit"?');
  });
});
