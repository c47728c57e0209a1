/** The one concurrency module: semaphore, worker pool, abortable sleep, rate limiter. */
export { abortReason, sleep } from './abort.js';
export { type PoolOptions, type PoolResult, runPool } from './pool.js';
export { RateLimiter, type RateLimits, type Ticket } from './rate.js';
export { Semaphore } from './semaphore.js';
