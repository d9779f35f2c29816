// Valid, unique ICCIDs for tests: a prefix per test file, then process, time and a counter.
import { withCheckDigit } from '../../server/sims/iccid.js';

export function iccidFactory(prefix: string): () => string {
  let n = 0;
  return () => {
    const body = `${prefix}${String(process.pid % 1e4).padStart(4, '0')}${String(Date.now() % 1e5).padStart(5, '0')}${String(n++).padStart(3, '0')}`;
    return withCheckDigit(body.slice(-19).padStart(19, '8'));
  };
}
