/**
 * The identities of issue 56 item 4, with every embedder kind the suite can load — the builtin, the
 * tiny ONNX model on disk (test/fixtures/embed/tiny-vit.onnx) and the same model from a hub on
 * 127.0.0.1 (test/support/fake-hub.ts) — on three keyframes made here with ffmpeg: the exact copy
 * scores 1 (fidelity ≥ 0.99), a copy delayed by N frames moves every f* by exactly N/fps, a
 * half-size copy at CRF 28 finds every keyframe with fidelity ≥ 0.8, reversed keyframes lose
 * ordering and keep fidelity, one left out costs presence 1/n, one held 2 s gains persistence and
 * keeps uniqueness. And `compass check-pipeline` on the mini set's case says so, exit 0; a setting
 * under which an identity fails (a γ above what a half-size copy reaches) exits 5 naming it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoadedCase } from '../../src/compass/cases/cases.js';
import { checkPipeline } from '../../src/compass/check/identities.js';
import { DEFAULT_RESPONSE_OPTIONS } from '../../src/compass/response/options.js';
import { scoreResponse } from '../../src/compass/response/report.js';
import { scanVideo } from '../../src/compass/scan/scan.js';
import type { Embedder } from '../../src/embed/embedder.js';
import { createEmbedder } from '../../src/embed/registry.js';
import { ffmpegRun } from '../../src/media/ffmpeg.js';
import { runCli } from '../support/cli.js';
import { type FakeHub, startFakeHub } from '../support/fake-hub.js';
import { ROOT, tempDir } from '../support/paths.js';

const dir = tempDir('check-pipeline-');
const FIX = join(ROOT, 'test', 'fixtures', 'embed');
const SOURCES = ['testsrc2=s=320x180', 'mandelbrot=s=320x180', 'smptehdbars=s=320x180'];

async function keyframes(): Promise<string[]> {
  return Promise.all(
    SOURCES.map(async (src, i) => {
      const png = join(dir, `kf${i + 1}.png`);
      await ffmpegRun(['-y', '-f', 'lavfi', '-i', src, '-frames:v', '1', png], png);
      return png;
    }),
  );
}

const CASE = async (): Promise<LoadedCase> =>
  ({
    case_id: 'three',
    domain: 'daily',
    structure: 'one_take',
    duration_s: 6,
    keyframes: (await keyframes()).map((image, i) => ({ kf_id: `k${i + 1}`, image, t_target_s: 1 + 2 * i })),
    prompts: { minimal: '', segment_specific: '' },
    story_summary: '',
    conditioning: 'image_list',
    source: { file: 'test' },
  }) as LoadedCase;

let hub: FakeHub;
beforeAll(async () => {
  hub = await startFakeHub('test-org/tiny-vit', {
    'config.json': Buffer.from(JSON.stringify({ model_type: 'tiny-vit', hidden_size: 8 })),
    'preprocessor_config.json': Buffer.from(
      JSON.stringify({
        image_processor_type: 'DINOv3ViTImageProcessorFast',
        do_resize: true,
        size: { height: 32, width: 32 },
        do_rescale: true,
        rescale_factor: 1 / 255,
        do_normalize: true,
        image_mean: [0.485, 0.456, 0.406],
        image_std: [0.229, 0.224, 0.225],
      }),
    ),
    'onnx/model.onnx': readFileSync(join(FIX, 'tiny-vit.onnx')),
  });
  process.env.HF_ENDPOINT = hub.url;
  process.env.HF_HOME = tempDir('check-pipeline-hf-');
  process.env.HF_HUB_OFFLINE = '0';
});
afterAll(() => hub.close());

/**
 * The embedders, each with the match threshold it is checked at: the builtin and the paper's
 * default γ; the tiny models' random weights put unrelated pictures close, so they are checked at
 * a γ that still tells these three apart.
 */
const EMBEDDERS = [
  { spec: 'builtin', gamma: undefined },
  { spec: `onnx:${join(FIX, 'tiny-vit.onnx')}`, gamma: 0.99 },
  { spec: 'hf:test-org/tiny-vit', gamma: 0.99 },
];

describe.each(EMBEDDERS)('the identities with $spec', ({ spec, gamma }) => {
  it('hold on three keyframes rendered at their targets', async () => {
    const c = await CASE();
    const embedder: Embedder = await createEmbedder(spec);
    const response = { ...DEFAULT_RESPONSE_OPTIONS, gamma };
    try {
      const r = await checkPipeline(c, {
        dir: tempDir('check-pipeline-videos-'),
        fit: 'cover',
        persistence_s: response.persistence_s,
        score: async (video, rendered) =>
          scoreResponse(
            rendered,
            await scanVideo({ video, keyframes: rendered.keyframes }, embedder, { gamma }),
            embedder,
            response,
          ),
      });
      const failing = r.checks.filter((x) => !x.holds);
      expect(failing, JSON.stringify(failing)).toEqual([]);
      expect(r.checks.map((x) => x.identity)).toEqual(
        expect.arrayContaining([
          'exact copy',
          'delayed 12 frames',
          'half size, CRF 28',
          'reversed',
          'keyframe 2 left out',
          'keyframe 1 held 2 s',
        ]),
      );
      const copy = r.checks.find((x) => x.identity === 'exact copy' && x.check === 'fidelity')!;
      expect(copy.value).toBeGreaterThanOrEqual(0.99);
    } finally {
      await embedder.close();
    }
  });
});

describe('kfbench compass check-pipeline', () => {
  it('says each identity holds on a case of your own (exit 0), and names one that does not (exit 5)', async () => {
    const c = await CASE();
    const cases = join(dir, 'cases.jsonl');
    const { source: _source, ...line } = c;
    const { writeFileSync } = await import('node:fs');
    writeFileSync(cases, `${JSON.stringify(line)}\n`);
    const ok = await runCli(['compass', 'check-pipeline', '--cases', cases]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/^holds\s+exact copy · fidelity\s+≥ 0\.99\s+got 1$/m);
    expect(ok.stdout).toMatch(/^14 identities hold$/m);
    // a γ no lossy copy reaches: the half-size copy finds nothing
    const bad = await runCli([
      'compass',
      'check-pipeline',
      '--cases',
      cases,
      '--gamma',
      '0.999999',
      '--json',
    ]);
    expect(bad.code).toBe(5);
    const out = JSON.parse(bad.stdout) as { checks: { identity: string; holds: boolean }[] }[];
    expect(out[0]!.checks.filter((x) => !x.holds).map((x) => x.identity)).toContain('half size, CRF 28');
    expect(bad.stderr).toMatch(/an identity does not hold for 1 case\(s\): three/);
  });
});

describe('a case the check cannot render', () => {
  it('two targets on one frame at 24 fps are refused naming the case and keyframes, before anything is rendered', async () => {
    const c = await CASE();
    const near: LoadedCase = {
      ...c,
      keyframes: c.keyframes.map((k, i) => ({ ...k, t_target_s: i === 1 ? 1.01 : k.t_target_s })),
    };
    // 1 s and 1.01 s share frame 24; the score function is never reached
    await expect(
      checkPipeline(near, {
        dir,
        fit: 'cover',
        persistence_s: 1,
        score: () => Promise.reject(new Error('scored')),
      }),
    ).rejects.toThrow(
      /case three: keyframes k1 and k2 \(targets 1\.000 s and 1\.010 s\) share a frame at 24 fps/,
    );
  });
});
