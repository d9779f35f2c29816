// The Content-Security-Policy nonce of the page being rendered on the server (app/entry.server.tsx), for
// Remix's inline scripts. In the browser it is empty: the scripts already ran and need none.
import { createContext, useContext } from 'react';

export const NonceContext = createContext('');

export const useNonce = () => useContext(NonceContext);
