// Continuous camera scanning into the bulk list (/add/bulk with JS): "Skanna med kameran" loads
// the scanner (quagga2 included) only when pressed, as on /add; the scanner stays open, each new code goes
// to the list with a short beep and vibration, a repeat is only hinted, and "Klar" closes it.
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { ScannerPending, useLazyScanner } from '#app/components/LazyScan.tsx';
import { tBulkScan } from '#domain/texts/bulk-scan.ts';

export type ScanAnswer = 'added' | 'repeat';

declare global {
  interface Window {
    /** Safari before 14.1 has the audio context only under this name. */
    webkitAudioContext?: typeof AudioContext;
  }
}

type Props = {
  /** Puts a code into the list: 'added', or 'repeat' when the list holds it already. */
  onCode: (iccid: string) => ScanAnswer;
  /** More buttons for the same row ("Töm listan"). */
  actions?: ReactNode;
  /** Notices shown under the buttons, above the camera picture (the queue, the network). */
  notices?: ReactNode;
};

type Last = { kind: ScanAnswer; iccid: string };

export function BulkScan({ onCode, actions, notices }: Props) {
  const [open, setOpen] = useState(false);
  const { Scanner, loadFailed, load } = useLazyScanner();
  const [scanned, setScanned] = useState(0);
  const [last, setLast] = useState<Last | null>(null);
  const audio = useRef<AudioContext | null>(null);
  useEffect(() => () => void audio.current?.close().catch(() => undefined), []);

  const toggle = () => {
    if (open) return setOpen(false);
    setOpen(true);
    setLast(null);
    // Made in the press, a user gesture: browsers let only such a context play.
    audio.current ??= makeAudio();
    load();
  };

  const accept = (iccid: string) => {
    const kind = onCode(iccid);
    setLast({ kind, iccid });
    if (kind === 'added') {
      setScanned((n) => n + 1);
      beep(audio.current);
      try {
        navigator.vibrate?.(60);
      } catch {
        // Not every browser lets a page vibrate.
      }
    }
  };

  return (
    <div className="bulkscan">
      <div className="bulkscan-bar">
        <button
          type="button"
          className={open ? 'btn btn-primary' : 'btn'}
          aria-expanded={open}
          aria-controls="scanner"
          onClick={toggle}
        >
          {open ? tBulkScan.done : tBulkScan.open}
        </button>
        {actions}
        {scanned > 0 || open ? (
          <span className="bulkscan-count" data-count={scanned}>
            {tBulkScan.scanned(scanned)}
          </span>
        ) : null}
      </div>
      {notices}
      {open ? (
        <>
          <p className="bulkscan-last" role="status">
            {last?.kind === 'added' ? tBulkScan.added(last.iccid) : null}
            {last?.kind === 'repeat' ? <span className="bulkscan-repeat">{tBulkScan.repeat(last.iccid)}</span> : null}
          </p>
          {Scanner ? <Scanner onAccept={accept} mode="continuous" /> : <ScannerPending failed={loadFailed} />}
        </>
      ) : null}
    </div>
  );
}

function makeAudio(): AudioContext | null {
  try {
    const Ctor = window.AudioContext ?? window.webkitAudioContext;
    return Ctor ? new Ctor() : null;
  } catch {
    return null;
  }
}

/** A short, quiet beep: 80 ms at 1.2 kHz. */
function beep(ctx: AudioContext | null) {
  if (!ctx) return;
  try {
    if (ctx.state === 'suspended') void ctx.resume();
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.frequency.value = 1200;
    gain.gain.value = 0.08;
    osc.connect(gain).connect(ctx.destination);
    osc.start();
    osc.stop(ctx.currentTime + 0.08);
  } catch {
    // No sound is no failure: the count and the list show the code.
  }
}
