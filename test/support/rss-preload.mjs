// Loaded into a CLI child by NODE_OPTIONS=--import (test/support/peak-rss.ts): on exit, the child's
// own peak RSS goes to stderr as the last line, `kfbench-test-max-rss-kb=N`.
process.on('exit', () => {
  process.stderr.write(`\nkfbench-test-max-rss-kb=${process.resourceUsage().maxRSS}\n`);
});
