export * from './grid.js';
export * from './hash.js';
export * from './image.js';
export * from './quality.js';
export * from './raw.js';
export * from './sample.js';
export * from './shots.js';
export * from './video.js';
