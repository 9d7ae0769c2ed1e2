export * from './catalogue.ts';
export * from './retry.ts';
export * from './render-docs.ts';
