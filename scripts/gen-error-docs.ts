// Writes docs/errors.md from the error catalogue. Run after adding a code:
//   node --import tsx scripts/gen-error-docs.ts
// errors.test.ts fails when the file and the catalogue disagree.
import { writeFileSync } from 'node:fs';
import { renderErrorDocs } from '../packages/contract/src/errors/render-docs.ts';

writeFileSync(new URL('../docs/errors.md', import.meta.url), renderErrorDocs());
console.log('docs/errors.md written');
