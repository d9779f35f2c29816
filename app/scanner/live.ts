// The camera session on top of quagga2. quagga is one global instance, so every operation on it
// (open, close, decode a photo) runs in turn; an open that was overtaken by a close cleans up after
// itself, so no camera is left on whatever order the user clicks in.
import type { QuaggaJSResultObject } from '@ericblade/quagga2';
import { stopStream } from './camera.ts';
import { liveConfig, type QuaggaApi } from './quagga.ts';

let queue: Promise<unknown> = Promise.resolve();

/** Runs `task` after every earlier quagga operation has settled. */
export function serial<T>(task: () => Promise<T>): Promise<T> {
  const run = queue.then(task, task);
  queue = run.catch(() => undefined);
  return run;
}

export type DetectedHandler = (result: QuaggaJSResultObject) => void;

export type LiveCamera = {
  /** Size of the frames quagga decodes (the coordinate space of its results). */
  frame: { width: number; height: number };
  /** Size of the camera picture, for drawing the scan box over it. */
  video: { width: number; height: number };
  deviceId: string | null;
};

/** Stops decoding and every camera track quagga or the video element still holds. */
export async function closeCamera(
  quagga: QuaggaApi,
  video: HTMLVideoElement | null,
  onDetected?: DetectedHandler,
): Promise<void> {
  if (onDetected) quagga.offDetected(onDetected);
  try {
    await quagga.stop();
  } catch (err) {
    console.error('[scanner] quagga.stop failed', err);
  }
  stopStream(quagga.CameraAccess.getActiveStream());
  if (video) {
    stopStream(video.srcObject as MediaStream | null);
    video.srcObject = null;
  }
}

/**
 * Opens the camera into `target` (which holds a <video>) and starts decoding. Resolves null when
 * `stillWanted()` turned false meanwhile (the scanner closed); the camera is then already off.
 */
export function openCamera(
  quagga: QuaggaApi,
  target: HTMLElement,
  constraints: MediaTrackConstraints,
  onDetected: DetectedHandler,
  stillWanted: () => boolean,
): Promise<LiveCamera | null> {
  return serial(async () => {
    if (!stillWanted()) return null;
    const video = target.querySelector('video');
    try {
      await quagga.init(liveConfig(target, constraints));
    } catch (err) {
      await closeCamera(quagga, video);
      throw err;
    }
    if (!stillWanted()) {
      await closeCamera(quagga, video);
      return null;
    }
    quagga.onDetected(onDetected);
    quagga.start();
    const image = quagga.canvas.dom.image;
    const settings = quagga.CameraAccess.getActiveTrack()?.getSettings();
    return {
      frame: { width: image?.width ?? video?.videoWidth ?? 0, height: image?.height ?? video?.videoHeight ?? 0 },
      video: { width: video?.videoWidth ?? 0, height: video?.videoHeight ?? 0 },
      deviceId: settings?.deviceId ?? null,
    };
  });
}

/** Closes the camera in turn with other quagga operations. */
export function closeCameraInTurn(
  quagga: QuaggaApi,
  video: HTMLVideoElement | null,
  onDetected?: DetectedHandler,
): Promise<void> {
  // Tracks are stopped at once as well: on unmount or a hidden tab we do not wait for the queue.
  if (video) stopStream(video.srcObject as MediaStream | null);
  return serial(() => closeCamera(quagga, video, onDetected));
}
