/**
 * Reads one input the way kfbench does and prints one JSON line: the error (message, code) or
 * `ok`, and the process's peak RSS. Run as a child process, so that the peak is the read's alone
 * and an unbounded read (the code before issue 46 item 1) cannot take the test runner with it:
 *   node --import tsx test/support/read-limits-driver.ts layout|image|text|jsonl|preprocess FILE
 */
import { z } from 'zod';
import { preprocessFromHubConfig } from '../../src/embed/hub-preprocess.js';
import { KfbenchError } from '../../src/errors.js';
import { resolveLayout } from '../../src/hero/dataset/layout-map.js';
import { loadImage } from '../../src/media/image.js';
import { readJsonlAll } from '../../src/store/jsonl.js';
import { readTextFile } from '../../src/store/limits.js';

const [kind, file] = process.argv.slice(2) as [string, string];
let error: { message: string; code: string } | null = null;
try {
  if (kind === 'layout') resolveLayout(file);
  else if (kind === 'image') await loadImage(file);
  else if (kind === 'text') readTextFile(file);
  else if (kind === 'jsonl') await readJsonlAll(file, z.unknown());
  else if (kind === 'preprocess') preprocessFromHubConfig(file);
  else throw new Error(`unknown kind ${kind}`);
} catch (e) {
  error = {
    message: e instanceof Error ? e.message : String(e),
    code: e instanceof KfbenchError ? e.code : 'other',
  };
}
console.log(JSON.stringify({ error, max_rss_mb: process.resourceUsage().maxRSS / 1024 }));
