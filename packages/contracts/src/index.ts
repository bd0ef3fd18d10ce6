export * from './service-names.ts';
export * from './events.ts';
export * from './api/index.ts';
export * from './trust.ts';
export * from './storable-text.ts';
export * from './money.ts';
export * from './money-format.ts';
export * from './notification-messages.ts';
