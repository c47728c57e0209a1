/**
 * Asks N distinct pairwise questions through a real Judge (openai backend → the emulator over
 * HTTP, cache on a file). Run as a child process by the crash/resume and two-process tests:
 *   node --import tsx test/support/judge-driver.ts CACHE URL N [concurrency]
 * Claims in the cache last KFBENCH_CLAIM_LEASE_S seconds (1 here unless set), so a killed
 * driver's questions are taken over quickly. Prints one JSON line of stats at the end.
 */
import { JudgeCache } from '../../src/judge/cache.js';
import { Judge } from '../../src/judge/judge.js';
import { OpenAiBackend } from '../../src/judge/openai.js';
import { askMany } from './judge-questions.js';

const [cachePath, url, nArg, concArg] = process.argv.slice(2);
const cache = new JudgeCache(cachePath!, {
  leaseMs: 1000 * Number(process.env.KFBENCH_CLAIM_LEASE_S || 1),
});
const backend = new OpenAiBackend({
  model: 'kfbench-emulator',
  baseUrls: [url!],
  concurrency: Number(concArg ?? 16),
  // generous: under load a spurious time-out would ask again and break the request counts
  timeoutMs: 120_000,
  backoffBaseMs: 5,
});
const judge = new Judge(backend, { cache });
const verdicts = await askMany(judge, Number(nArg));
cache.close();
console.log(
  JSON.stringify({
    ...judge.stats,
    answered: verdicts.filter((v) => v.answer).length,
    unresolved_verdicts: verdicts.filter((v) => v.unresolved).length,
  }),
);
