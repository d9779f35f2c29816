// The camera side of the scanner without quagga: can this page use a camera at all, what a failed
// getUserMedia means, which constraints to ask for, and what localStorage remembers between visits.

import { tScanner } from '#domain/texts/scanner.ts';

/** A camera of the device, as the scanner's choice lists it. */
export type Camera = { id: string; label: string };

export type CameraProblem = 'unsupported' | 'insecure' | 'denied' | 'notFound' | 'inUse' | 'failed';

/** Checked before asking for the camera. Browsers hide navigator.mediaDevices outside a secure context. */
export function cameraSupport(w: {
  isSecureContext: boolean;
  navigator: { mediaDevices?: { getUserMedia?: unknown } };
}): CameraProblem | null {
  if (!w.isSecureContext) return 'insecure';
  if (typeof w.navigator.mediaDevices?.getUserMedia !== 'function') return 'unsupported';
  return null;
}

/** Maps a getUserMedia/quagga failure to what we tell the user. */
export function cameraProblem(err: unknown): CameraProblem {
  const name = err && typeof err === 'object' && 'name' in err ? String(err.name) : '';
  switch (name) {
    case 'NotAllowedError':
    case 'PermissionDeniedError':
    case 'SecurityError':
      return 'denied';
    case 'NotFoundError':
    case 'DevicesNotFoundError':
    case 'OverconstrainedError':
      return 'notFound';
    case 'NotReadableError':
    case 'TrackStartError':
    case 'AbortError':
      return 'inUse';
    case 'NotSupportedError':
    case 'TypeError':
      return 'unsupported';
    default:
      return 'failed';
  }
}

/** The rear camera unless the user picked one. */
export function constraintsFor(deviceId: string | null): MediaTrackConstraints {
  const size = { width: { ideal: 1280 }, height: { ideal: 720 } };
  return deviceId ? { deviceId: { exact: deviceId }, ...size } : { facingMode: 'environment', ...size };
}

export type ScannerMemory = { permissionGranted: boolean; cameraId: string | null };
const KEY = 'sim-portal:scanner';

export function readMemory(storage: Pick<Storage, 'getItem'> | null): ScannerMemory {
  try {
    const v = JSON.parse(storage?.getItem(KEY) ?? 'null') as Partial<ScannerMemory> | null;
    return {
      permissionGranted: v?.permissionGranted === true,
      cameraId: typeof v?.cameraId === 'string' && v.cameraId ? v.cameraId : null,
    };
  } catch {
    return { permissionGranted: false, cameraId: null };
  }
}

export function writeMemory(storage: Pick<Storage, 'setItem'> | null, memory: ScannerMemory): void {
  try {
    storage?.setItem(KEY, JSON.stringify(memory));
  } catch {
    // private mode or full storage: the scanner still works, it just forgets
  }
}

export function safeLocalStorage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/** Stops every track of a stream; the one way the camera light goes off. */
export function stopStream(stream: MediaStream | null | undefined): void {
  stream?.getTracks().forEach((track) => track.stop());
}

/** The cameras of this device, named (labels are readable once permission was granted) or numbered. */
export async function listCameras(): Promise<Camera[]> {
  try {
    const devices = await navigator.mediaDevices.enumerateDevices();
    return devices
      .filter((d) => d.kind === 'videoinput' && d.deviceId)
      .map((d, i) => ({ id: d.deviceId, label: d.label || tScanner.cameraN(i + 1) }));
  } catch (err) {
    console.error('[scanner] enumerateDevices failed', err);
    return [];
  }
}
