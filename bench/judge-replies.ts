/**
 * Hostile judge replies (issue 46, items 2 and 3), measured:
 *  - the client's peak RSS (its own child process, test/support/reply-memory-driver.ts) for four
 *    questions at --concurrency 4 against the emulator answering normally, with an endless chunked
 *    reply (the server stops at `ENDLESS_MB` if the client reads on), and with a 50 MB reply
 *    (content-length declared);
 *  - the CPU time of parsing a reply of 200,000 `{` (and other shapes) with parseReply.
 * Run: npx tsx bench/judge-replies.ts [ENDLESS_MB=256] [BRACES=200000]
 */
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { PairAnswer } from '../src/judge/pairwise.js';
import { parseReply } from '../src/judge/parse.js';
import type { FaultKind } from '../src/synthetic/emulator/faults.js';
import { startEmulator } from '../src/synthetic/emulator/server.js';

const ROOT = resolve(import.meta.dirname, '..');
const ENDLESS_MB = Number(process.argv[2] ?? 256);
const BRACES = Number(process.argv[3] ?? 200_000);

function child(url: string): Promise<Record<string, unknown>> {
  return new Promise((done, fail) => {
    const p = spawn(
      process.execPath,
      ['--import', 'tsx', join(ROOT, 'test', 'support', 'reply-memory-driver.ts'), url, '4', '4'],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    p.stdout.on('data', (c: Buffer) => (out += c));
    p.stderr.on('data', (c: Buffer) => (err += c));
    p.on('close', (code) => {
      const line = out.trim().split('\n').pop() ?? '';
      if (code === 0 && line.startsWith('{')) done(JSON.parse(line) as Record<string, unknown>);
      else done({ exit: code, error: err.trim().split('\n').slice(-3).join(' | ') });
    });
    p.on('error', fail);
  });
}

for (const kind of ['none', 'endless', 'huge'] as const) {
  const emu = await startEmulator(
    kind === 'none'
      ? {}
      : { faults: { rate: 1, kinds: [kind as FaultKind], endlessBytes: ENDLESS_MB << 20, hugeBytes: 50e6 } },
  );
  const r = await child(emu.url);
  await emu.close();
  const unresolved = Array.isArray(r.unresolved) ? r.unresolved[0] : undefined;
  console.log(
    `replies ${kind.padEnd(7)}: peak RSS ${typeof r.max_rss_mb === 'number' ? r.max_rss_mb.toFixed(0) : '?'} MB, answered ${r.answered ?? '?'}/4, calls ${r.calls ?? '?'}${unresolved ? `, unresolved: ${unresolved}` : ''}${r.error ? `, failed (exit ${r.exit}): ${r.error}` : ''}`,
  );
}

const shapes: [string, string][] = [
  [`${BRACES.toLocaleString('en')} "{"`, '{'.repeat(BRACES)],
  [`${BRACES.toLocaleString('en')} "{\\""`, '{"'.repeat(BRACES / 2)],
  [`${BRACES.toLocaleString('en')} "["`, '['.repeat(BRACES)],
  [`${BRACES.toLocaleString('en')} '"'`, '"'.repeat(BRACES)],
];
for (const [name, text] of shapes) {
  const c0 = process.cpuUsage();
  const r = parseReply(text, PairAnswer);
  const c = process.cpuUsage(c0);
  console.log(
    `parse ${name.padEnd(16)}: ${((c.user + c.system) / 1e6).toFixed(3)} CPU-s → ${r.ok ? 'ok' : r.reason}`,
  );
}
