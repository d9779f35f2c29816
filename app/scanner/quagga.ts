// How we drive quagga2: the configurations and the photo decoder. quagga itself is passed in, never
// imported here at runtime, so this module is safe anywhere (the Node test hands in the Node build,
// the browser the lazily loaded one).
import type Quagga from '@ericblade/quagga2';
import type { QuaggaJSConfigObject, QuaggaJSResultObject } from '@ericblade/quagga2';
import { FRAMES_PER_SECOND, judge, READERS, type ScanVerdict } from './rules.ts';

export type QuaggaApi = typeof Quagga;

/** Photo sizes (longest side, px) tried in turn: a barcode small in a big photo needs a larger one. */
export const FILE_SIZES = [800, 1600, 480] as const;
const FILE_TIMEOUT_MS = 20_000;
/** Passes over a photo whose barcodes held no ICCID yet (quagga's locating is random). */
const PASSES = 4;

export function fileConfig(src: string, size: number): QuaggaJSConfigObject {
  return {
    src,
    numOfWorkers: 0,
    locate: true,
    inputStream: { size },
    decoder: { readers: [...READERS], multiple: true },
  };
}

export function liveConfig(target: HTMLElement, constraints: MediaTrackConstraints): QuaggaJSConfigObject {
  return {
    inputStream: { type: 'LiveStream', target, constraints, size: 800, willReadFrequently: true },
    frequency: FRAMES_PER_SECOND,
    locate: true,
    numOfWorkers: 0,
    canvas: { createOverlay: false },
    locator: { halfSample: true, patchSize: 'medium' },
    decoder: { readers: [...READERS] },
  };
}

/** Every decoded text in a result (one, or several with `multiple`). */
export function decodedTexts(result: QuaggaJSResultObject | QuaggaJSResultObject[] | null | undefined): string[] {
  if (!result) return [];
  const list = Array.isArray(result) ? result : result.barcodes?.length ? result.barcodes : [result];
  return list.map((r) => r?.codeResult?.code).filter((c): c is string => typeof c === 'string' && c !== '');
}

function decodeOnce(quagga: QuaggaApi, src: string, size: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    // quagga never answers when the image cannot be loaded: give up after a while.
    const timer = setTimeout(() => reject(new Error('Bilden kunde inte läsas (tidsgräns).')), FILE_TIMEOUT_MS);
    quagga
      .decodeSingle(fileConfig(src, size), (result) => {
        clearTimeout(timer);
        resolve(decodedTexts(result));
      })
      .catch((err: unknown) => {
        clearTimeout(timer);
        reject(err instanceof Error ? err : new Error(String(err)));
      });
  });
}

/**
 * Decodes a photo (file path in Node, object or data URL in the browser) with the camera's rules:
 * the first acceptable ICCID wins; else the first other text is reported as rejected; else none.
 * quagga locates barcodes from random starting points, so a photo with several (a SIM carrier has the PUK
 * too) may yield only the other one in a pass: while passes find barcodes but no ICCID, more are made
 * (at most PASSES; a photo without any barcode is given up after the first).
 */
export async function decodeImage(
  quagga: QuaggaApi,
  src: string,
  sizes: readonly number[] = FILE_SIZES,
): Promise<ScanVerdict> {
  let rejected: ScanVerdict | null = null;
  for (let pass = 0; pass < PASSES && (pass === 0 || rejected); pass++) {
    for (const size of sizes) {
      for (const text of await decodeOnce(quagga, src, size)) {
        const verdict = judge(text);
        if (verdict.kind === 'accepted') return verdict;
        rejected ??= verdict;
      }
    }
  }
  return rejected ?? { kind: 'none' };
}
