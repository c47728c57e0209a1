/** Typed errors as plain data and back (a worker thread's error reaching the main thread). */
import { describe, expect, it } from 'vitest';
import {
  BackendError,
  BadInputError,
  CancelledError,
  EnvironmentError,
  errorData,
  InternalError,
  KfbenchError,
  PartialError,
  reviveError,
  UsageError,
} from '../src/errors.js';
import { CallBudgetSpent } from '../src/judge/question.js';
import { hamming } from '../src/media/hash.js';
import { psnr } from '../src/media/quality.js';
import { pairedBootstrap } from '../src/stats/bootstrap.js';
import { fitBradleyTerry } from '../src/stats/bradley-terry.js';
import { krippendorffAlpha } from '../src/stats/krippendorff.js';
import { rankCorrelation } from '../src/stats/rank.js';

/** Through `postMessage`'s structured clone, as a worker's answer goes. */
const across = (e: unknown) => reviveError(structuredClone(errorData(e)));

describe('errorData / reviveError', () => {
  it('a BadInputError comes back as one, with its file, line and message as they were', () => {
    const e = new BadInputError('has no decodable frames', { file: '/v/a.mp4', line: 3 });
    const back = across(e);
    expect(back).toBeInstanceOf(BadInputError);
    expect(back).toMatchObject({ message: '/v/a.mp4:3: has no decodable frames', file: '/v/a.mp4', line: 3 });
    expect((back as BadInputError).code).toBe('BAD_INPUT');
    expect((back as BadInputError).exitCode).toBe(3);
    expect(back.stack).toBe(e.stack);
    const bare = across(new BadInputError('no file named'));
    expect(bare).toMatchObject({ message: 'no file named', file: undefined, line: undefined });
  });

  it('every kfbench class keeps its class, code and fields; a subclass keeps its name and code', () => {
    for (const e of [
      new UsageError('--jobs must be a whole number'),
      new BackendError('ffprobe was not found'),
      new CancelledError('stop here'),
      new PartialError('2 failed', ['a', 'b']),
      new InternalError('a bug'),
      new EnvironmentError('no space left on the device', { path: '/full/out.json' }),
    ]) {
      const back = across(e);
      expect(back.constructor).toBe(e.constructor);
      expect(back).toMatchObject({ name: e.name, message: e.message, code: e.code });
    }
    expect((across(new PartialError('x', ['a'])) as PartialError).failed).toEqual(['a']);
    // each exit class has its own code; an environment failure exits 4 like a backend's
    expect(new InternalError('x')).toMatchObject({ code: 'INTERNAL', exitCode: 1 });
    expect(new EnvironmentError('x')).toMatchObject({ code: 'ENVIRONMENT', exitCode: 4 });
    expect(new BackendError('x')).toMatchObject({ code: 'BACKEND', exitCode: 4 });
    const spent = across(new CallBudgetSpent(5));
    expect(spent).toBeInstanceOf(KfbenchError);
    expect(spent.name).toBe(new CallBudgetSpent(5).name);
    expect((spent as KfbenchError).code).toBe(new CallBudgetSpent(5).code);
  });

  it('other errors come back as the built-in class of their name, else a plain Error named so', () => {
    const t = across(new TypeError('not a function'));
    expect(t).toBeInstanceOf(TypeError);
    expect(t.message).toBe('not a function');
    const custom = new Error('odd');
    custom.name = 'OddError';
    expect(across(custom)).toMatchObject({ name: 'OddError', message: 'odd' });
    expect(across('a string')).toMatchObject({ name: 'Error', message: 'a string' });
  });
});

describe('the building blocks throw typed errors a library caller can tell apart', () => {
  const thrown = (f: () => unknown) => {
    try {
      f();
    } catch (e) {
      return e;
    }
    return undefined;
  };
  it('bad data is BadInputError (exit 3), a wrong call is UsageError (exit 2)', () => {
    const noComparisons = thrown(() => fitBradleyTerry([]));
    expect(noComparisons).toBeInstanceOf(BadInputError);
    expect((noComparisons as KfbenchError).exitCode).toBe(3);
    expect(thrown(() => rankCorrelation([1, 2, 3], [1, 2]))).toBeInstanceOf(BadInputError);
    expect(thrown(() => krippendorffAlpha([[1, 2], [1]], 'interval'))).toBeInstanceOf(BadInputError);
    expect(thrown(() => hamming('00', '000'))).toBeInstanceOf(BadInputError);
    const wrongCall = thrown(() => pairedBootstrap([1, 2], [1], { B: 10 }));
    expect(wrongCall).toBeInstanceOf(UsageError);
    expect((wrongCall as KfbenchError).exitCode).toBe(2);
    const rgb = { width: 4, height: 4, channels: 3 as const, data: new Uint8Array(48) };
    expect(thrown(() => psnr(rgb, { ...rgb, width: 2, data: new Uint8Array(24) }))).toBeInstanceOf(
      BadInputError,
    );
  });
});
