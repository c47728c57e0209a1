/**
 * bench/hero-protocols — what the insertion protocol does to HeroFrame scores (README "Protocols
 * compared"). Run:
 *   npm run build && npx tsx bench/hero-protocols.ts
 * The full mini HeroFrame set with chains built by the VLM emulator (4 per film, as the demo), the
 * emulator on 127.0.0.1 as the reader, over HTTP through the real client. Rows: random, the human
 * stills row and three other methods (uniform, sharpest, hecate-like; 5 frames per film). Columns:
 * S under listwise (the published question), listwise in both orders (disagreement = error),
 * pairwise and binary; questions per insertion; the disagreement rate of each protocol's own
 * consistency check; Kendall τ between each protocol's ranking of the five rows and listwise's.
 * Twice: the emulator as the chains were built (position bias 0.002) and a position-biased reader
 * (bias 0.05: each image shown earlier looks better by up to 0.05) — and how far each S moves.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildChains } from '../src/hero/build/build.js';
import { type EvaluateResult, evaluate } from '../src/hero/evaluate/evaluate.js';
import { methodByName } from '../src/hero/select/registry.js';
import { runSelection } from '../src/hero/select/run.js';
import { JudgeCache } from '../src/judge/cache.js';
import { ImageEncoder } from '../src/judge/images.js';
import { Judge } from '../src/judge/judge.js';
import { OpenAiBackend } from '../src/judge/openai.js';
import { kendallTauB } from '../src/stats/rank.js';
import { startEmulator } from '../src/synthetic/emulator/server.js';
import { buildMiniHero } from '../src/synthetic/mini-hero.js';

const ROOT = resolve(import.meta.dirname, '..');
const OUT = join(ROOT, 'bench', 'out', 'hero-protocols');
const t0 = performance.now();

const mini = await buildMiniHero(join(OUT, 'mini'));
const enc = new ImageEncoder();
const judgeFor = (url: string, cache: string) =>
  new Judge(new OpenAiBackend({ model: 'kfbench-emulator', baseUrls: [url], concurrency: 16 }), {
    cache: new JudgeCache(cache),
  });
if (!existsSync(join(mini.data, '.bench-chains'))) {
  const emu = await startEmulator();
  const judge = judgeFor(emu.url, join(OUT, 'build-cache.sqlite'));
  await buildChains({
    data: mini.data,
    lsmdc: mini.lsmdc,
    stills: mini.stills,
    judge,
    encoder: enc,
    chainsPerFilm: 4,
    seed: 0,
  });
  await judge.close();
  await emu.close();
  writeFileSync(join(mini.data, '.bench-chains'), '');
}
const METHODS = ['random', 'uniform', 'sharpest', 'hecate-like'];
const methods = [];
for (const m of METHODS) {
  const file = join(OUT, `${m}.jsonl`);
  await runSelection({
    method: methodByName(m),
    data: mini.data,
    track: mini.track,
    out: file,
    k: 5,
    seed: 0,
  });
  methods.push({ method: m, file });
}
const ROWS = [...METHODS, 'stills'];
const PROTOCOLS = [
  { label: 'listwise', protocol: 'listwise' as const },
  { label: 'listwise, both orders', protocol: 'listwise' as const, bothOrders: true },
  { label: 'pairwise', protocol: 'pairwise' as const },
  { label: 'binary', protocol: 'binary' as const },
];
const READERS = [
  { label: 'emulator (bias 0.002, as the chains were built)', bias: 0.002 },
  { label: 'position-biased emulator (bias 0.05)', bias: 0.05 },
];

const results = new Map<string, EvaluateResult>();
for (const reader of READERS) {
  const emu = await startEmulator({ positionBias: reader.bias });
  const judge = judgeFor(emu.url, join(OUT, `cache-bias-${reader.bias}.sqlite`));
  for (const p of PROTOCOLS) {
    const r = await evaluate({
      data: mini.data,
      track: mini.track,
      methods,
      judge,
      encoder: enc,
      protocol: p.protocol,
      bothOrders: !!p.bothOrders,
      includeStills: true,
      bootstrapB: 200,
      concurrency: 16,
    });
    results.set(`${reader.bias}|${p.label}`, r);
  }
  await judge.close();
  await emu.close();
}

const S = (bias: number, p: string, m: string) =>
  results.get(`${bias}|${p}`)!.summary.methods.find((x) => x.method === m)!.S ?? Number.NaN;
const f3 = (x: number) => x.toFixed(3);
const signed = (x: number) => `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(3)}`;
const films = results.get(`0.002|listwise`)!.perFilm.filter((f) => f.method === 'random').length;
console.log(`mini set: ${films} films, 4 chains each; rows ${ROWS.join(', ')}\n`);
for (const reader of READERS) {
  console.log(`### ${reader.label}\n`);
  console.log(`| row | ${PROTOCOLS.map((p) => p.label).join(' | ')} |`);
  console.log(`|---|${PROTOCOLS.map(() => '---').join('|')}|`);
  for (const m of ROWS)
    console.log(
      `| ${m} | ${PROTOCOLS.map((p) => {
        const s = S(reader.bias, p.label, m);
        return reader.bias === 0.002 ? f3(s) : `${f3(s)} (${signed(s - S(0.002, p.label, m))})`;
      }).join(' | ')} |`,
    );
  const sum = (p: string) => results.get(`${reader.bias}|${p}`)!.summary;
  console.log(
    `| questions per insertion | ${PROTOCOLS.map((p) => sum(p.label).questions_per_insertion.toFixed(2)).join(' | ')} |`,
  );
  console.log(
    `| disagreement rate | ${PROTOCOLS.map((p) => {
      const d = sum(p.label).disagreement;
      return d.rate === null
        ? 'not measured'
        : `${(100 * d.rate).toFixed(1)} % of ${d.checks} ${p.protocol === 'listwise' ? 'insertions' : 'comparisons'}`;
    }).join(' | ')} |`,
  );
  const base = ROWS.map((m) => S(reader.bias, 'listwise', m));
  console.log(
    `| Kendall τ with listwise (5 rows) | ${PROTOCOLS.map((p) =>
      kendallTauB(
        base,
        ROWS.map((m) => S(reader.bias, p.label, m)),
      ).toFixed(2),
    ).join(' | ')} |\n`,
  );
}
console.log(
  `wall ${((performance.now() - t0) / 1000).toFixed(0)} s, peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`,
);
