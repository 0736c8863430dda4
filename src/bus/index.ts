export { type Bus, type BusFilter, type BusHandler, type BusPayload } from './bus.js';
export { MemoryBus } from './memory-bus.js';
export { RedisBus } from './redis-bus.js';
