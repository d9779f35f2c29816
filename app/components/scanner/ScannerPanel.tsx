// The scanner's panel (app/scanner/Scanner.tsx drives it): the camera picture with its scan box, the status
// line, hints and problems, the camera choice and the buttons. Only what it is told: no state of its own.
import type { ChangeEvent, CSSProperties, RefObject } from 'react';
import type { Camera, CameraProblem } from '#app/scanner/camera.ts';
import type { ScannerState } from '#app/scanner/machine.ts';
import { scanBox, type RejectReason } from '#app/scanner/rules.ts';
import { tScanner } from '#domain/texts/scanner.ts';
import { Notice } from '#app/components/ui/Notice.tsx';

export type Size = { width: number; height: number };

type Props = {
  state: ScannerState;
  /** Starting the camera or reading a photo: the buttons that would start another wait. */
  busy: boolean;
  status: string;
  /** quagga draws its video into this element. */
  targetRef: RefObject<HTMLDivElement>;
  videoRef: RefObject<HTMLVideoElement>;
  videoSize: Size | null;
  hint: RejectReason | null;
  problem: CameraProblem | 'load' | null;
  notice: string | null;
  cameras: Camera[];
  cameraId: string | null;
  onCamera: (e: ChangeEvent<HTMLSelectElement>) => void;
  onPause: () => void;
  onResume: () => void;
  onStop: () => void;
  onStart: () => void;
  onFile: (e: ChangeEvent<HTMLInputElement>) => void;
};

export function ScannerPanel({
  state,
  busy,
  status,
  targetRef,
  videoRef,
  videoSize,
  hint,
  problem,
  notice,
  cameras,
  cameraId,
  onCamera,
  onPause,
  onResume,
  onStop,
  onStart,
  onFile,
}: Props) {
  const live = state !== 'notStarted';
  const box = videoSize && live ? boxStyle(videoSize) : null;
  return (
    <section id="scanner" className="scanner" aria-label={tScanner.title} data-state={state}>
      <div
        className="scanner-view"
        style={
          videoSize && live
            ? ({ '--scanner-ar': (videoSize.width / videoSize.height).toFixed(4) } as CSSProperties)
            : undefined
        }
      >
        <div ref={targetRef} className="scanner-video" hidden={!live}>
          <video ref={videoRef} muted playsInline autoPlay />
        </div>
        {box ? <div className="scanner-box" style={box} aria-hidden="true" /> : null}
        {/* The status line below says what is going on; the dark picture only shows a camera symbol. */}
        {!live ? (
          <div className="scanner-placeholder" aria-hidden="true">
            <svg
              viewBox="0 0 24 24"
              width="48"
              height="48"
              fill="none"
              stroke="currentColor"
              strokeWidth="1.5"
              strokeLinecap="round"
              strokeLinejoin="round"
            >
              <path d="M3 8.5A1.5 1.5 0 0 1 4.5 7h2.6l1.4-2h7l1.4 2h2.6A1.5 1.5 0 0 1 21 8.5v9a1.5 1.5 0 0 1-1.5 1.5h-15A1.5 1.5 0 0 1 3 17.5z" />
              <circle cx="12" cy="13" r="3.5" />
            </svg>
          </div>
        ) : null}
      </div>
      <p className="scanner-status" role="status">
        {status}
      </p>
      {hint && live ? <p className="scanner-hint">{tScanner.rejectedHint[hint]}</p> : null}
      {problem ? (
        <Notice kind="error" role="alert">
          {tScanner.problems[problem]}
        </Notice>
      ) : null}
      {notice ? (
        <Notice kind="error" role="alert">
          {notice}
        </Notice>
      ) : null}
      {cameras.length > 1 ? (
        <div className="field scanner-camera">
          <label htmlFor="scanner-camera">{tScanner.camera}</label>
          <select id="scanner-camera" value={cameraId ?? ''} onChange={onCamera} disabled={busy}>
            {cameraId && !cameras.some((c) => c.id === cameraId) ? (
              <option value={cameraId}>{tScanner.camera}</option>
            ) : null}
            {!cameraId ? <option value="">{tScanner.camera}</option> : null}
            {cameras.map((c) => (
              <option key={c.id} value={c.id}>
                {c.label}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      <div className="scanner-actions">
        {state === 'scanning' ? (
          <button type="button" className="btn" onClick={onPause}>
            {tScanner.pause}
          </button>
        ) : null}
        {state === 'paused' ? (
          <button type="button" className="btn" onClick={onResume}>
            {tScanner.resume}
          </button>
        ) : null}
        {live ? (
          <button type="button" className="btn" onClick={onStop}>
            {tScanner.stop}
          </button>
        ) : (
          <button type="button" className="btn" onClick={onStart} disabled={busy}>
            {tScanner.start}
          </button>
        )}
        <label className="btn scanner-file" aria-disabled={live || busy ? 'true' : undefined}>
          {tScanner.fromFile}
          <input
            type="file"
            accept="image/*"
            capture
            onChange={onFile}
            disabled={live || busy}
            aria-describedby="scanner-file-hint"
          />
        </label>
      </div>
      <p id="scanner-file-hint" className="hint">
        {tScanner.fromFileHint} {tScanner.manual}
      </p>
    </section>
  );
}

/** The scan box over the picture, in percent of the picture, so it scales with the layout. */
function boxStyle({ width, height }: Size) {
  const box = scanBox(width, height);
  const pct = (v: number) => `${(v * 100).toFixed(3)}%`;
  return {
    left: pct(box.x / width),
    top: pct(box.y / height),
    width: pct(box.side / width),
    height: pct(box.side / height),
  };
}
