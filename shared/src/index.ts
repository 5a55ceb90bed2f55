export * from './catalog.js';
export * from './events.js';
export * from './faultRule.js';
export * from './protocol.js';
export * from './stores.js';
export * from './verdict.js';
export * from './recording.js';
export * from './random.js';
