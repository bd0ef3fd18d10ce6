export * from './events.ts';
export * from './api/index.ts';
