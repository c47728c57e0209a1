// Loaded into a CLI child with --import (test/cli/lazy-load.test.ts): every module the child
// resolves, by `import` or `require`, written on exit to the file named by KFBENCH_TEST_MODULES,
// one URL a line. module.registerHooks is in Node 22.15 and 24.
import { writeFileSync } from 'node:fs';
import { registerHooks } from 'node:module';

const seen = new Set();
registerHooks({
  resolve(specifier, context, next) {
    const r = next(specifier, context);
    seen.add(r.url);
    return r;
  },
});
process.on('exit', () => {
  writeFileSync(process.env.KFBENCH_TEST_MODULES, `${[...seen].join('\n')}\n`);
});
