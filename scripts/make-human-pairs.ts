/**
 * test/fixtures/hero/human-pairs.jsonl: MADE-UP "human" choices for the README's
 * `hero analyze human` example — not human data. It replays the README's HeroFrame steps (mini set,
 * fitted local reader, chains built with it, 2 per film), then takes 8 confident chain pairs per
 * film and lets a simulated annotator agree with the chain's winner 75 % of the time (seeded).
 *   npm run build && npx tsx scripts/make-human-pairs.ts
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createRng } from '../src/stats/rng.js';

const ROOT = resolve(import.meta.dirname, '..');
const tmp = join(ROOT, 'bench', 'out', 'human-pairs-mini');
const reader = join(ROOT, 'bench', 'out', 'human-pairs-reader.json');
const kf = (...args: string[]) =>
  execFileSync(process.execPath, [join(ROOT, 'dist', 'cli', 'bin.js'), ...args], { stdio: 'inherit' });
rmSync(tmp, { recursive: true, force: true });
kf('hero', 'mini', '--out', tmp);
kf('hero', 'fit-reader', '--data', join(tmp, 'heroframe'), '--out', reader);
kf(
  'hero',
  'build',
  '--data',
  join(tmp, 'heroframe'),
  '--lsmdc',
  join(tmp, 'lsmdc'),
  '--stills',
  join(tmp, 'stills'),
  '--judge',
  `local:${reader}`,
  '--chains-per-film',
  '2',
);
const rng = createRng('made-up-human-choices');
const rows: unknown[] = [];
for (const line of readFileSync(join(tmp, 'heroframe', 'data', 'chains.jsonl'), 'utf8')
  .trim()
  .split('\n')) {
  const f = JSON.parse(line) as {
    movie_id: string;
    chains: { pairs: { a: string; b: string; winner: string | null; status: string }[] }[];
  };
  const pairs = f.chains.flatMap((c) => c.pairs).filter((p) => p.status === 'confident' && p.winner);
  for (const p of pairs.slice(0, 8)) {
    const agree = rng.next() < 0.75;
    rows.push({
      movie_id: f.movie_id,
      a: p.a,
      b: p.b,
      human_winner: agree ? p.winner : p.winner === p.a ? p.b : p.a,
      made_up: true,
    });
  }
}
writeFileSync(
  join(ROOT, 'test', 'fixtures', 'hero', 'human-pairs.jsonl'),
  `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`,
);
console.log(`${rows.length} made-up human pairs written`);
