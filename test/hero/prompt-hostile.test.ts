/**
 * Issue 55, items 6 and 7: a film's text is substituted into the reader's template in one pass
 * (a title holding `{{synopsis}}`, a synopsis holding `{{n}}`, stay as written), the rendered
 * prompt is capped, and `hero prompt --check`'s diff is bounded in memory (asserted in a child
 * process as its peak RSS) and in what it prints.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type FilmText, type ReaderPrompt, readerPromptText } from '../../src/hero/reader/prompt.js';
import { MAX_SHOWN } from '../../src/hero/reader/prompt-diff.js';
import { MAX_PROMPT_CHARS } from '../../src/judge/prompts.js';
import { ROOT } from '../support/paths.js';

const rp = (template: string): ReaderPrompt => ({
  source: 'file',
  template,
  version: 'test',
  not_placed: [],
});
const film = (o: Partial<FilmText>): FilmText => ({
  movie_id: 'm1',
  title: 'A Film',
  year: 1999,
  synopsis: 'Plain.',
  guidelines: ['the hero in the rain'],
  ...o,
});

describe('7. the film text is never read again as a template', () => {
  const template =
    'Film: "{{title}}" ({{year}})\n\n{{synopsis}}\n\n{{guidelines}}\n\nRank {{n}} of {{total}}. {{constructor}}';

  it('placeholders inside the data stay as written', () => {
    const text = readerPromptText(
      rp(template),
      film({
        title: 'The {{synopsis}} Affair',
        synopsis: 'A film about {{n}}, {{instructions}} and {{title}}.',
        guidelines: ['{{year}} matters'],
      }),
      4,
    );
    expect(text).toBe(
      'Film: "The {{synopsis}} Affair" (1999)\n\nA film about {{n}}, {{instructions}} and {{title}}.\n\n- {{year}} matters\n\nRank 4 of 5. {{constructor}}',
    );
  });

  it('a rendered prompt over the cap is one bad-input error, before it is built whole', () => {
    const many = `${'{{synopsis}}\n'.repeat(200)}{{n}}`;
    const synopsis = 'x'.repeat(100_000); // 200 × 100 KB = 20 MB of prompt
    expect(() => readerPromptText(rp(many), film({ synopsis }), 4)).toThrow(
      new RegExp(`more than ${MAX_PROMPT_CHARS} characters`),
    );
  });
});

describe('6. hero prompt --check: the diff is bounded', () => {
  it('a 400 KB example against a 20,000-line template: peak RSS under 300 MB, at most the shown lines printed', () => {
    const code = `import { lineDiff } from ${JSON.stringify(join(ROOT, 'src', 'hero', 'reader', 'prompt-diff.ts'))};
      const a = Array.from({ length: 20000 }, (_, i) => 'template line ' + i).join('\\n');
      const b = Array.from({ length: 4000 }, (_, i) => 'example line ' + (i * 7) + ' ' + 'y'.repeat(80)).join('\\n');
      const d = lineDiff(a, b, ['a', 'b']);
      console.log(JSON.stringify({ lines: d.split('\\n').length, last: d.trim().split('\\n').at(-1), rss: process.resourceUsage().maxRSS / 1024 }));`;
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout) as { lines: number; last: string; rss: number };
    expect(out.rss).toBeLessThan(300);
    expect(out.lines).toBeLessThanOrEqual(MAX_SHOWN + 5);
    expect(out.last).toMatch(/^… \d+ more lines of the diff not shown$/);
  });
});
