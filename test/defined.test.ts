/** `defined` (issue 58 item 2): an object without its undefined values, nothing else dropped. */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { defined } from '../src/defined.js';

describe('defined', () => {
  it('drops undefined values only; null, false, 0 and "" stay', () => {
    const o = defined({ a: 1, b: undefined as string | undefined, c: null, d: false, e: 0, f: '' });
    expect(o).toEqual({ a: 1, c: null, d: false, e: 0, f: '' });
    expect(Object.hasOwn(o, 'b')).toBe(false);
    // an optional property means absent: `b` may be missing, never undefined
    expectTypeOf(o.b).toEqualTypeOf<string | undefined>();
    expectTypeOf<typeof o>().toHaveProperty('a').toEqualTypeOf<number>();
  });
});
