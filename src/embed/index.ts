export * from './builtin.js';
export * from './cache.js';
export * from './calibrate.js';
export * from './embedder.js';
export * from './onnx.js';
export * from './registry.js';
