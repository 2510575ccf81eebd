import { describe, expect, it } from 'vitest';
import { type FixStep, followsSteps, sameStep, stepsIdentity } from './fix-steps';

const run = (detail: string): FixStep => ({
  kind: 'run',
  key: `run:${detail.split(' ').slice(0, 2).join(' ')}`,
  detail,
  eventId: 'T:1:1',
});
const edit = (detail: string): FixStep => ({ kind: 'edit', key: 'edit', detail, eventId: 'T:1:1' });

describe('sameStep', () => {
  it('takes a command with the same tokens once scrubbed, or enough of them', () => {
    expect(sameStep(run('npm install lodash'), run('npm install lodash'))).toBe(true);
    expect(sameStep(run('npm install lodash'), run('npm install lodash --save'))).toBe(true);
    expect(sameStep(run('npm install ./pkgs/a.tgz'), run('npm install ./vendor/b.tgz'))).toBe(true);
    expect(sameStep(run('npm install lodash'), run('npm install left-pad'))).toBe(false);
  });

  it('takes the same file, wherever the checkout is, and not another file', () => {
    expect(sameStep(edit('/home/a/shop/lib/greet.js'), edit('/srv/ci/shop/lib/greet.js'))).toBe(
      true,
    );
    expect(sameStep(edit('/home/a/shop/lib/greet.js'), edit('lib/greet.js'))).toBe(true);
    expect(sameStep(edit('/home/a/shop/lib/greet.js'), edit('/home/a/shop/lib/other.js'))).toBe(
      false,
    );
    expect(sameStep(edit('src/index.ts'), edit('test/index.ts'))).toBe(false);
    // A tool that did not name its file matches any edit.
    expect(sameStep(edit('(a file)'), edit('src/index.ts'))).toBe(true);
  });
});

describe('followsSteps', () => {
  const pattern = [run('npm install lodash'), edit('/a/package.json'), edit('/a/src/app.ts')];

  it('is followed when each group of steps ran, in order, with other steps between', () => {
    expect(
      followsSteps(pattern, [
        run('git status'),
        run('npm install lodash --save'),
        edit('/b/src/app.ts'),
        edit('/b/README.md'),
      ]),
    ).toBe(true);
  });

  it('is not followed when a step ran with another command or file, or out of order', () => {
    expect(followsSteps(pattern, [run('npm install left-pad'), edit('/b/src/app.ts')])).toBe(false);
    expect(followsSteps(pattern, [run('npm install lodash'), edit('/b/src/other.ts')])).toBe(false);
    expect(followsSteps(pattern, [edit('/b/src/app.ts'), run('npm install lodash')])).toBe(false);
    expect(followsSteps(pattern, [])).toBe(false);
  });

  it('a pattern with no steps is followed only by a session that changed nothing', () => {
    expect(followsSteps([], [])).toBe(true);
    expect(followsSteps([], [edit('x.ts')])).toBe(false);
  });

  it('gives two checkouts of one fix one identity, and another file another', () => {
    expect(stepsIdentity([edit('/home/a/shop/lib/greet.js')])).toBe(
      stepsIdentity([edit('/srv/ci/shop/lib/greet.js')]),
    );
    expect(stepsIdentity([edit('/a/lib/greet.js')])).not.toBe(stepsIdentity([edit('/a/lib/x.js')]));
  });
});
