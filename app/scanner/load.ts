// quagga2, downloaded when the scanner opens (its chunk starts the download as it loads): one download per
// page, retried on the next attempt if it failed.
import type { QuaggaApi } from './quagga.ts';

/** The package as imported: its API is the default export (or, by CommonJS interop, the namespace itself). */
type QuaggaModule = { default?: QuaggaApi };

const apiOf = (m: QuaggaModule): QuaggaApi => m.default ?? (m as QuaggaApi);

let quaggaModule: Promise<QuaggaApi> | null = null;

export function loadQuagga(): Promise<QuaggaApi> {
  quaggaModule ??= import('@ericblade/quagga2').then(apiOf);
  // A failed download may be retried on the next attempt.
  quaggaModule.catch(() => (quaggaModule = null));
  return quaggaModule;
}
