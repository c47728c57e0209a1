/**
 * The import rules of src/, checked by `npm run lint` on the real, resolved module paths: each
 * layer of lint/layers.cjs imports only from itself and the layers below; the folders a layer
 * keeps apart do not import each other; every module belongs to a layer; nothing forms a cycle.
 */
const { LAYERS } = require('./lint/layers.cjs');


const forbidden = [
  {
    name: 'no-circular',
    comment: 'no module reaches itself again through its imports (type-only imports count)',
    severity: 'error',
    from: { path: '^src/' },
    to: { circular: true },
  },
  {
    name: 'no-unlayered',
    comment: 'every module of src/ belongs to a layer of .dependency-cruiser.cjs',
    severity: 'error',
    from: { path: '^src/', pathNot: LAYERS.map((l) => l.path) },
    to: {},
  },
];
LAYERS.forEach((layer, i) => {
  const above = LAYERS.slice(i + 1);
  if (above.length)
    forbidden.push({
      name: `${layer.name.replace(/ /g, '-')}-imports-down`,
      comment: `${layer.name} imports only from its own layer and below, not from ${above.map((l) => l.name).join(', ')}`,
      severity: 'error',
      from: { path: layer.path },
      to: { path: above.map((l) => l.path) },
    });
  for (const a of layer.apart ?? [])
    forbidden.push({
      name: `${layer.name.replace(/ /g, '-')}-apart`,
      comment: `the folders of ${layer.name} do not import each other`,
      severity: 'error',
      from: { path: a },
      to: { path: (layer.apart ?? []).filter((b) => b !== a) },
    });
});

// Compass by concept (issue 58 items 3 and 5): the scan knows nothing of either axis; the two
// axes (response, quality) know nothing of each other nor of what puts them together (overall/,
// run/, merge/), which alone orders them; and no module of src/compass re-exports another's names.
const AXES_JOINED = '^src/compass/(overall|run|merge)/';
forbidden.push(
  {
    name: 'compass-scan-not-quality',
    comment: 'the scan (src/compass/scan) knows nothing of the quality axis (src/compass/quality)',
    severity: 'error',
    from: { path: '^src/compass/scan/' },
    to: { path: '^src/compass/quality/' },
  },
  {
    name: 'compass-scan-not-response',
    comment:
      'the scan (src/compass/scan) reads videos against keyframes and knows nothing of the response metrics read from it (src/compass/response) nor of what joins the axes',
    severity: 'error',
    from: { path: '^src/compass/scan/' },
    to: { path: ['^src/compass/response/', AXES_JOINED] },
  },
  {
    name: 'compass-quality-not-response',
    comment:
      'the quality axis (src/compass/quality) knows nothing of the response axis (src/compass/response) nor of what joins the axes (overall, run, merge)',
    severity: 'error',
    from: { path: '^src/compass/quality/' },
    to: { path: ['^src/compass/response/', AXES_JOINED] },
  },
  {
    name: 'compass-response-not-quality',
    comment:
      'the response axis (src/compass/response) knows nothing of the quality axis (src/compass/quality) nor of what joins the axes (overall, run, merge)',
    severity: 'error',
    from: { path: '^src/compass/response/' },
    to: { path: ['^src/compass/quality/', AXES_JOINED] },
  },
  {
    name: 'compass-no-re-export',
    comment:
      'no module of src/compass re-exports names (`export … from`): importers import from the module that declares them; only src/index.ts lists the public API',
    severity: 'error',
    from: { path: '^src/compass/' },
    to: { dependencyTypes: ['export'] },
  },
);

module.exports = {
  forbidden,
  options: {
    parser: 'swc',
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    includeOnly: '^src/',
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
