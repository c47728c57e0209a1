/**
 * The layers of src/, lowest first: a module imports only from its own layer and the layers below
 * it. Written once, read by .dependency-cruiser.cjs (the rules `npm run lint` checks) and by
 * scripts/architecture-doc.ts (the drawing in docs/architecture.md). Within a layer, folders named
 * in `apart` do not import each other.
 */
const LAYERS = [
  {
    name: 'base',
    path: '^src/(errors|progress|native|nearest|defined)\\.ts$',
    what: 'typed errors, progress events, native-module loading, nearest-value suggestions',
  },
  {
    name: 'building blocks',
    path: '^src/(concurrency|stats|store|media|embed|judge)/',
    what: 'concurrency, statistics, storage, media (ffmpeg, sharp), embedders, judges: no benchmark wording',
  },
  {
    name: 'benchmarks',
    path: '^src/(hero|compass)/',
    what: 'HeroFrame and Compass: each knows its own protocol and formulas',
    apart: ['^src/hero/', '^src/compass/'],
  },
  { name: 'reports', path: '^src/report/', what: 'pure renderers: terminal, JSON, CSV, Markdown, HTML' },
  { name: 'viewer', path: '^src/web/', what: 'the local read-only viewer (server and pages)' },
  {
    name: 'synthetic',
    path: '^src/synthetic/',
    what: 'generated material: the mini and published-size sets, the demo material, the VLM emulator',
  },
  {
    name: 'runs',
    path: '^src/runs/',
    what: 'one function per command (hero evaluate, compass score/evaluate, merge, demo): a typed options object in, its outputs back',
  },
  { name: 'library', path: '^src/index\\.ts$', what: 'the public API: a list of names' },
  { name: 'cli', path: '^src/cli/', what: 'parse flags into a run\'s options object, call the run, print' },
];

module.exports = { LAYERS };
