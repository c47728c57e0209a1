export * from './errors.js';
export * from './media/index.js';
export * from './store/atomic-write.js';
