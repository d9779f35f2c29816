// Valid, unique ICCIDs for tests: a prefix per test file, then process, time and a counter.
import { withCheckDigit } from '#domain/sims/iccid.ts';

export function iccidFactory(prefix: string): () => string {
  let n = 0;
  return () => {
    const body = `${prefix}${String(process.pid % 1e4).padStart(4, '0')}${String(Date.now() % 1e5).padStart(5, '0')}${String(n++).padStart(3, '0')}`;
    return withCheckDigit(body.slice(-19).padStart(19, '8'));
  };
}

/** The checksum symbol of a Code 128 that encodes `digits` (an even count) in code set C, as bwip-js draws it. */
export function code128Checksum(digits: string): number {
  return (digits.match(/\d\d/g) ?? []).reduce((sum, pair, i) => sum + Number(pair) * (i + 1), 105) % 103;
}

/**
 * A valid ICCID starting with `first16` whose Code 128 checksum symbol is 102, the value FNC1 has: the case
 * quagga2 read wrong until patches/ mended it (a trailing group separator, so the label was refused).
 */
export function iccidWithFnc1Checksum(first16: string): string {
  for (let tail = 0; tail < 1000; tail++) {
    const iccid = withCheckDigit(`${first16}${String(tail).padStart(3, '0')}`);
    if (code128Checksum(iccid) === 102) return iccid;
  }
  throw new Error(`no ICCID starting with ${first16} has a Code 128 checksum of 102`);
}
