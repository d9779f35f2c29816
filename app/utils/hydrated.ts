// Whether the page runs its JS: false in the server's HTML and the first render, true after hydration. A control
// that needs JS (a copy button, a print button, a passkey) shows only then.
import { useEffect, useState } from 'react';

export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}
