import { describe, expect, it } from 'vitest';
import { withoutFenceGuard } from './noFenceGuard.js';

describe('withoutFenceGuard: the UPDATE a no-fence-guard mutant sends', () => {
  it('is the fenced UPDATE without the guard it ends with', () => {
    expect(withoutFenceGuard('update documents set content = $1, fence = $2, writer = $3 where id = 1 and fence < $2')).toBe(
      'update documents set content = $1, fence = $2, writer = $3 where id = 1',
    );
    expect(withoutFenceGuard('update documents set content = $1, writer = $2, fence = $3 where id = 1 and fence < $3')).toBe(
      'update documents set content = $1, writer = $2, fence = $3 where id = 1',
    );
  });

  it('refuses an UPDATE that has no guard to leave out', () => {
    expect(() => withoutFenceGuard('update documents set content = $1 where id = 1')).toThrow(/no fence guard/);
  });
});
