/**
 * The "Limits on input" section of docs/cli.md, rendered from the constants the code checks (issue
 * 46: every cap, its default and how to raise it), so the page cannot drift from them.
 */
import { DEFAULT_MAX_RETRY_WAIT_MS } from '../judge/openai.js';
import { DEFAULT_MAX_REPLY_BYTES } from '../judge/reply-limit.js';
import { DEFAULT_MAX_DURATION_S } from '../media/duration.js';
import { DEFAULT_MAX_IMAGE_PIXELS, MAX_IMAGE_FILE_BYTES } from '../media/image.js';
import { MAX_LINE_BYTES, MAX_WHOLE_FILE_BYTES, mib } from '../store/limits.js';
import { MAX_DECOMPRESSED_BYTES } from '../store/zstd.js';

const n = (x: number) => x.toLocaleString('en-US');

export function limitsSection(): string[] {
  return [
    '## Limits on input',
    '',
    'Every input is read within a limit checked before or while reading; past it the input is bad input',
    '(exit `3`, one line naming the file and the limit), or for a video a failed video (exit `5`). Only',
    'regular files are read: a FIFO, a socket or a device (`/dev/zero`) given as an input file is refused',
    'before any read.',
    '',
    '| Input | Limit | Raise it with |',
    '| --- | --- | --- |',
    `| a file read whole (JSON, config, layout map, prompt, rubric) | ${mib(MAX_WHOLE_FILE_BYTES)} | — |`,
    `| a line of a JSON Lines file | ${mib(MAX_LINE_BYTES)} | — |`,
    `| a \`.zst\` file, decompressed | ${mib(MAX_DECOMPRESSED_BYTES)} | — |`,
    `| an image file (keyframe, still, frame) | ${mib(MAX_IMAGE_FILE_BYTES)} on disk | — |`,
    `| an image's pixels, from its header before decoding | ${n(DEFAULT_MAX_IMAGE_PIXELS)} | \`KFBENCH_MAX_IMAGE_PIXELS\` |`,
    `| a video's duration: its header, then its frames' own timestamps | ${DEFAULT_MAX_DURATION_S} s | \`--max-duration\` |`,
    `| a judge reply's text | ${n(DEFAULT_MAX_REPLY_BYTES)} bytes | \`max_reply_bytes\` in the judge config |`,
    `| a wait a server asks for (\`Retry-After\`) | ${DEFAULT_MAX_RETRY_WAIT_MS / 1000} s | \`--max-retry-wait\` |`,
    '',
  ];
}
