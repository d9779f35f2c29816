// The scanner's states and the only moves between them (spec section 4). Pure: no DOM, no quagga.
// The UI asks this module before it touches the camera, and shows the reason when a move is refused.

export type ScannerState = 'notStarted' | 'scanning' | 'paused';

/** Why a move was refused; each has a Swedish text in t.scanner.refused. */
export type Refusal = 'notScanning' | 'notRunning' | 'alreadyScanning' | 'fileWhileRunning';

export type Move =
  | { ok: true; from: ScannerState; to: ScannerState }
  | { ok: false; from: ScannerState; to: ScannerState; reason: Refusal };

const ALLOWED: Record<ScannerState, readonly ScannerState[]> = {
  notStarted: ['scanning'],
  scanning: ['paused', 'notStarted'],
  paused: ['scanning', 'notStarted'],
};

function refusal(to: ScannerState): Refusal {
  if (to === 'paused') return 'notScanning'; // notStarted -> paused, paused -> paused
  if (to === 'notStarted') return 'notRunning'; // notStarted -> notStarted
  return 'alreadyScanning'; // scanning -> scanning
}

/** Answers whether the scanner may go from `from` to `to`; a refused move names its reason and keeps the state. */
export function move(from: ScannerState, to: ScannerState): Move {
  return ALLOWED[from].includes(to) ? { ok: true, from, to } : { ok: false, from, to, reason: refusal(to) };
}

/** The state after a move: the target when allowed, else unchanged. */
export function next(from: ScannerState, to: ScannerState): ScannerState {
  return move(from, to).ok ? to : from;
}

export type FileScanCheck = { ok: true } | { ok: false; reason: 'fileWhileRunning' };

/** A photo may be decoded only while the camera scanner is not started. */
export function fileScan(state: ScannerState): FileScanCheck {
  return state === 'notStarted' ? { ok: true } : { ok: false, reason: 'fileWhileRunning' };
}

export const canScanFile = (state: ScannerState): boolean => fileScan(state).ok;

// Continuous scanning (/add/bulk): the scanner stays open, and each accepted code goes into a list.
// A single scan closes the scanner after one code; a continuous one keeps scanning.
export type ScanMode = 'single' | 'continuous';

/** The state after an accepted code: a single scan stops the camera, a continuous one stays where it is. */
export function afterAccept(mode: ScanMode, state: ScannerState): ScannerState {
  return mode === 'continuous' ? state : next(state, 'notStarted');
}

/** How long the same code, still in view, is not told again (the decoder reads it many times a second). */
export const SAME_CODE_MS = 1500;

export type LastRead = { code: string; at: number } | null;

/**
 * Whether a read is news for the list: a different code than the last, or the same one after a while.
 * The camera sees a label for many frames in a row; only the first read of it (and a later look back at
 * it) is answered, so the beep sounds once and the "already in the list" hint is not flooded.
 */
export function freshRead(last: LastRead, code: string, now: number, quietMs = SAME_CODE_MS): boolean {
  return last === null || last.code !== code || now - last.at >= quietMs;
}

export type ListVerdict = { kind: 'added'; codes: string[] } | { kind: 'repeat'; codes: string[] };

/** A code into the list: added at the end when new, else the list as it was (a repeat is ignored). */
export function addToList(codes: readonly string[], code: string): ListVerdict {
  return codes.includes(code) ? { kind: 'repeat', codes: [...codes] } : { kind: 'added', codes: [...codes, code] };
}
