/**
 * A run's tools (issue 58 item 1, src/runs/tools.ts): opened only when its settings name them,
 * closed together after the work — also when the work fails — and a tool the work needs but the
 * settings did not open is kfbench's own error, not an undefined further down.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InternalError } from '../../src/errors.js';
import { openTools, withTools } from '../../src/runs/tools.js';
import { tempDir } from '../support/paths.js';

describe('openTools / withTools', () => {
  it('opens what the settings name, and closes it after the work, also when the work fails', async () => {
    const file = join(tempDir(), 'scans.sqlite');
    let seen: Awaited<ReturnType<typeof openTools>> | undefined;
    await expect(
      withTools({ embedder: { spec: 'builtin' }, scanCache: { file } }, async (tools) => {
        seen = tools;
        expect(tools.needEmbedder().id).toMatch(/builtin/);
        expect(tools.scanCache?.get('nothing')).toBeUndefined();
        expect(tools.judge).toBeUndefined();
        throw new Error('the work failed');
      }),
    ).rejects.toThrow('the work failed');
    // the scan cache was closed: its database refuses a read
    expect(() => seen!.scanCache!.get('nothing')).toThrow();
  });

  it('a tool the work needs and the settings did not name is an internal error naming it', async () => {
    await withTools({}, async (tools) => {
      expect(() => tools.needJudge()).toThrow(InternalError);
      expect(() => tools.needJudge()).toThrow(/opened no judge/);
      expect(() => tools.needEmbedder()).toThrow(/opened no embedder/);
    });
  });

  it('a tool that cannot open closes the ones opened before it, and says why', async () => {
    // a scan cache under a file, not a folder
    const notDir = join(tempDir(), 'a-file');
    writeFileSync(notDir, 'x');
    await expect(
      openTools({ embedder: { spec: 'builtin' }, scanCache: { file: join(notDir, 'x.sqlite') } }),
    ).rejects.toThrow(/a-file/);
    await expect(openTools({ embedder: { spec: 'onnx:/no/such/model.onnx' } })).rejects.toThrow(
      /model\.onnx/,
    );
  });
});
