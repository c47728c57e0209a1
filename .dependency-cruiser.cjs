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
