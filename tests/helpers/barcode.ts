// Real barcodes for the scanner tests: bwip-js draws them (the size a SIM label's barcode has on a phone's
// camera picture), and Chromium photographs them on a white page, as the fake camera's frames or a photo.
import bwipjs from 'bwip-js/node';
import type { Browser } from 'playwright-core';

/** A PNG of a barcode: Code 128 unless `options.bcid` says otherwise. */
export function barcodePng(options: bwipjs.RenderOptions): Promise<Buffer> {
  return bwipjs.toBuffer({
    scale: 2,
    height: 12,
    paddingwidth: 24,
    paddingheight: 12,
    backgroundcolor: 'FFFFFF',
    ...options,
  });
}

const dataUrl = (png: Buffer) => `data:image/png;base64,${png.toString('base64')}`;

/** Renders images (one above the other) on a white page in Chromium and photographs it. */
export async function photograph(
  browser: Browser,
  images: Buffer[],
  size: { width: number; height: number },
  type: 'jpeg' | 'png',
): Promise<Buffer> {
  const page = await browser.newPage({ viewport: size });
  const imgs = images.map((png) => `<img src="${dataUrl(png)}">`).join('');
  await page.setContent(
    `<body style="margin:0;background:#fff;height:100vh;display:flex;flex-direction:column;gap:60px;align-items:center;justify-content:center">${imgs}</body>`,
  );
  await page.waitForFunction(() => [...document.images].every((i) => i.complete && i.naturalWidth > 0));
  const shot = await page.screenshot(type === 'jpeg' ? { type, quality: 92 } : { type });
  await page.close();
  return shot;
}
