export * from './compass/index.js';
export * from './concurrency/index.js';
export * from './embed/index.js';
export * from './errors.js';
export * from './judge/index.js';
export * from './media/index.js';
export * from './stats/index.js';
export * from './store/atomic-write.js';
