// A passkey ceremony in the browser: the options from POST /auth/passkey/options, the browser's passkey prompt
// (@simplewebauthn/browser, loaded only when a ceremony starts), the answer to POST /auth/passkey/verify.
import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import type { CeremonyPurpose } from '#domain/auth/passkeys.ts';
import { tSecurity } from '#domain/texts/security.ts';

export type CeremonyResult<T> = { ok: true; value: T } | { ok: false; error: string };

async function post(path: string, body: unknown): Promise<{ ok: boolean; data: unknown }> {
  const res = await fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(body),
    credentials: 'same-origin',
  });
  const data: unknown = await res.json().catch(() => null);
  return { ok: res.ok, data };
}

const errorOf = (data: unknown): string => {
  const error = (data as { error?: unknown } | null)?.error;
  return typeof error === 'string' ? error : tSecurity.passkeys.failed;
};

/** Runs one ceremony; `name` is a new passkey's name (register only). Never throws. */
export async function runCeremony<T = unknown>(
  purpose: CeremonyPurpose,
  extra: { name?: string } = {},
): Promise<CeremonyResult<T>> {
  try {
    const webauthn = await import('@simplewebauthn/browser');
    if (!webauthn.browserSupportsWebAuthn()) return { ok: false, error: tSecurity.passkeys.unsupported };
    const options = await post('/auth/passkey/options', { purpose });
    if (!options.ok) return { ok: false, error: errorOf(options.data) };
    let response: unknown;
    try {
      response =
        purpose === 'register'
          ? await webauthn.startRegistration({ optionsJSON: options.data as PublicKeyCredentialCreationOptionsJSON })
          : await webauthn.startAuthentication({ optionsJSON: options.data as PublicKeyCredentialRequestOptionsJSON });
    } catch (err) {
      const name = (err as { name?: unknown } | null)?.name;
      const code = (err as { code?: unknown } | null)?.code;
      if (code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED')
        return { ok: false, error: tSecurity.passkeys.alreadyAdded };
      return {
        ok: false,
        error: name === 'NotAllowedError' ? tSecurity.passkeys.cancelled : tSecurity.passkeys.failed,
      };
    }
    const verified = await post('/auth/passkey/verify', { purpose, response, ...extra });
    if (!verified.ok) return { ok: false, error: errorOf(verified.data) };
    return { ok: true, value: verified.data as T };
  } catch {
    return { ok: false, error: tSecurity.passkeys.failed };
  }
}
