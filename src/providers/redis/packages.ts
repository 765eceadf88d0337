import { createRequire } from 'node:module';
import type * as BullMQ from 'bullmq';
import type * as IORedis from 'ioredis';

// Loaded when a process first connects to Redis (REDIS_URL), not when it starts: BullMQ and ioredis
// are a fifth of a second of start-up that a server without Redis never needs (docs/deployment.md).
const require = createRequire(import.meta.url);

export const ioredis = (): typeof IORedis => require('ioredis');
export const bullmq = (): typeof BullMQ => require('bullmq');
