// What the scanner accepts (spec sections 5 and 9): Code 128 only, 15 frames a second, a square scan box
// of 85% of the smaller video side, and only a text that is an acceptable ICCID. Pure, so unit tests,
// the Node decoding test and the browser share it.
import { iccidProblem, isAcceptableScan } from '#domain/sims/iccid.ts';

export const READERS = ['code_128_reader'] as const;
export const FRAMES_PER_SECOND = 15;
export const SCAN_BOX_RATIO = 0.85;
/** After this many rejected reads in a row the scanner shows a hint. */
export const REJECTS_BEFORE_HINT = 3;

/**
 * Why a read was not taken: 20 digits whose Luhn check digit is wrong (a misread, or a mistyped label) is told
 * apart from a code that is no ICCID at all (a PUK, an EAN), so the user knows which one the camera saw.
 */
export type RejectReason = 'checkDigit' | 'notIccid';

export type ScanVerdict =
  { kind: 'accepted'; iccid: string } | { kind: 'rejected'; text: string; reason: RejectReason } | { kind: 'none' };

/** The one acceptance rule for camera and photo: a decoded text is taken only if isAcceptableScan says so. */
export function judge(text: string | null | undefined): ScanVerdict {
  if (text == null || text === '') return { kind: 'none' };
  if (isAcceptableScan(text)) return { kind: 'accepted', iccid: text };
  const reason = /^\d{20}$/.test(text) && iccidProblem(text) === 'checkDigit' ? 'checkDigit' : 'notIccid';
  return { kind: 'rejected', text, reason };
}

export type Box = { x: number; y: number; side: number };

/** The centred square scan box for a frame of width x height. */
export function scanBox(width: number, height: number, ratio = SCAN_BOX_RATIO): Box {
  const side = Math.min(width, height) * ratio;
  return { x: (width - side) / 2, y: (height - side) / 2, side };
}

/** True when every point (the decoder's scan line across the bars) lies inside the box. */
export function insideBox(points: ReadonlyArray<{ x: number; y: number }>, box: Box): boolean {
  return (
    points.length > 0 &&
    points.every((p) => p.x >= box.x && p.x <= box.x + box.side && p.y >= box.y && p.y <= box.y + box.side)
  );
}
