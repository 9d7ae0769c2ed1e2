export * from './errors/index.ts';
export * from './scopes.ts';
export * from './schemas/common.ts';
export * from './schemas/envelope.ts';
export * from './schemas/client.ts';
export * from './schemas/operator.ts';
export * from './schemas/deposits.ts';
