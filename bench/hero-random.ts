/**
 * bench/hero-random — why the random row is not 0.5 (docs/heroframe.md "Why random is not 0.5
 * here"), measured with a **perfect reader**: the emulator's own fixed rule (heroScore over the
 * image's pixel features, weighted by the film's prompt and rubric — the rule that built the
 * chains), applied without noise or position bias. A frame's s = chain images it scores above / 6.
 *   npx tsx bench/hero-random.ts DATA TRACK [SELECTIONS.jsonl]
 * DATA is a built mini HeroFrame root (e.g. kfbench-demo/mini-hero/heroframe), TRACK its track.
 * Prints, for every frame of the 1 fps track (the exact expectation for a uniformly random frame)
 * and for the selections file if given: mean s, p = how often the frame beats the chain's still,
 * the mean share of the five sampled chain frames it beats (2.5 of 5 if exchangeable with them),
 * and how often the chain order agrees with the perfect reader's.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { imagePath, trackFramePath } from '../src/hero/dataset/layout.js';
import { loadChains, loadCore, loadRubrics } from '../src/hero/dataset/load.js';
import { heroInstructions } from '../src/hero/prompt.js';
import { imageFeatures } from '../src/synthetic/emulator/features.js';
import { heroScore, weightsFor } from '../src/synthetic/emulator/rubric.js';

const [data, track, selections] = process.argv.slice(2);
if (!data || !track) throw new Error('usage: npx tsx bench/hero-random.ts DATA TRACK [SELECTIONS.jsonl]');
const ds = await loadCore(data);
const chains = await loadChains(data);
const rubrics = await loadRubrics(data);
const picked = new Map<string, number[]>();
if (selections)
  for (const l of readFileSync(selections, 'utf8').trim().split('\n')) {
    const r = JSON.parse(l) as { movie_id: string; frames: { frame_idx: number }[] };
    picked.set(
      r.movie_id,
      r.frames.map((f) => f.frame_idx),
    );
  }
type Tally = { n: number; s: number; still: number; sampled: number };
const all: Tally = { n: 0, s: 0, still: 0, sampled: 0 };
const sel: Tally = { n: 0, s: 0, still: 0, sampled: 0 };
let agree = 0;
let chainCount = 0;
let stillRank = 0;
for (const [film, fc] of chains) {
  const w = weightsFor(heroInstructions(ds.movies.get(film) ?? { title: film, year: 0 }, rubrics.get(film)));
  const score = async (file: string) => heroScore(await imageFeatures(readFileSync(file)), w);
  const frames = readdirSync(join(track, film))
    .filter((n) => /^\d+\.jpg$/.test(n))
    .map((n) => Number(n.replace('.jpg', '')));
  const frameScore = new Map<number, number>();
  for (const k of frames) frameScore.set(k, await score(trackFramePath(track, film, k)));
  for (const c of fc.chains) {
    const members = await Promise.all(
      c.order.map(async (id) => ({
        id,
        still: c.images.find((i) => i.image_id === id)?.source === 'still',
        score: await score(imagePath(data, film, id)),
      })),
    );
    chainCount++;
    const sorted = [...members].sort((a, b) => b.score - a.score).map((m) => m.id);
    if (sorted.join() === c.order.join()) agree++;
    stillRank += c.order.findIndex((id) => members.find((m) => m.id === id)!.still) + 1;
    const add = (t: Tally, f: number) => {
      const x = frameScore.get(f)!;
      const below = members.filter((m) => m.score < x);
      t.n++;
      t.s += below.length / members.length;
      t.still += below.some((m) => m.still) ? 1 : 0;
      t.sampled += below.filter((m) => !m.still).length / 5;
    };
    for (const f of frames) add(all, f);
    for (const f of picked.get(film) ?? []) add(sel, f);
  }
}
const line = (name: string, t: Tally) =>
  t.n
    ? `${name}: ${t.n} insertions, mean s ${(t.s / t.n).toFixed(3)}, p (beats the still) ${(t.still / t.n).toFixed(3)}, share of the 5 sampled frames beaten ${(t.sampled / t.n).toFixed(3)} (0.5 if exchangeable), (2.5 + 5·share·… ) check: (5·${(t.sampled / t.n).toFixed(3)} + ${(t.still / t.n).toFixed(3)}) / 6 = ${((5 * t.sampled + t.still) / t.n / 6).toFixed(3)}`
    : `${name}: none`;
console.log(
  `${chains.size} films, ${chainCount} chains; chain order = the perfect reader's order in ${agree} of ${chainCount}; mean still rank ${(stillRank / chainCount).toFixed(2)} of 6`,
);
console.log(line('every track frame', all));
if (selections) console.log(line(`selections ${selections}`, sel));
