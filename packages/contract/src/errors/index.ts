export * from './catalogue.ts';
export * from './retry.ts';
