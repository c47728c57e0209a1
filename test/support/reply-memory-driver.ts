/**
 * Asks N distinct pairwise questions at once through a real Judge (openai backend over HTTP, no
 * cache) and prints one JSON line: the verdicts' unresolved reasons, the answers, and the
 * process's peak RSS. Run as a child process, so that the peak is the client's alone:
 *   node --import tsx test/support/reply-memory-driver.ts URL N [concurrency]
 */
import { Judge } from '../../src/judge/judge.js';
import { OpenAiBackend } from '../../src/judge/openai.js';
import { askMany } from './judge-questions.js';

const [url, nArg, concArg] = process.argv.slice(2);
const n = Number(nArg);
const judge = new Judge(
  new OpenAiBackend({
    model: 'kfbench-emulator',
    baseUrls: [url!],
    concurrency: Number(concArg ?? 4),
    timeoutMs: 600_000,
    maxRetries: 0,
  }),
);
const verdicts = await askMany(judge, n, n);
await judge.close();
console.log(
  JSON.stringify({
    answered: verdicts.filter((v) => v.answer).length,
    unresolved: verdicts.map((v) => v.unresolved ?? null),
    raw_chars: Math.max(...verdicts.flatMap((v) => v.raw.map((r) => r.length))),
    calls: judge.stats.calls,
    max_rss_mb: process.resourceUsage().maxRSS / 1024,
  }),
);
