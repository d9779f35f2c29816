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
