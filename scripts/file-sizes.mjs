#!/usr/bin/env node
// No source file over 350 lines (issue #47: "small files named for one concept"); Biome's
// complexity/noExcessiveLinesPerFunction holds functions to 80. Part of `npm run lint`.
// Usage: node scripts/file-sizes.mjs [dir] [max]
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.argv[2] ?? 'src';
const max = Number(process.argv[3] ?? 350);
const over = readdirSync(dir, { recursive: true })
  .map(String)
  .filter((f) => f.endsWith('.ts'))
  .map((f) => ({ f: join(dir, f), n: readFileSync(join(dir, f), 'utf8').split('\n').length - 1 }))
  .filter((x) => x.n > max);
for (const { f, n } of over) console.error(`${f}: ${n} lines, over the ${max}-line limit for a source file`);
if (over.length > 0) process.exit(1);
console.log(`file sizes: every .ts file under ${dir} has at most ${max} lines`);
