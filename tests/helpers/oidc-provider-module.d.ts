// The part of oidc-provider (a test-only devDependency without its own types) that tests/helpers/oidc-provider.ts
// uses.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export type ClientMetadata = Record<string, unknown> & { client_id: string };
  export type Account = { accountId: string; claims: (...args: unknown[]) => Record<string, unknown> };
  export type Configuration = {
    clients?: ClientMetadata[];
    pkce?: { required?: (...args: unknown[]) => boolean };
    features?: Record<string, { enabled: boolean }>;
    claims?: Record<string, string[] | null>;
    conformIdTokenClaims?: boolean;
    cookies?: { keys?: string[] };
    interactions?: { url?: (ctx: unknown, interaction: { uid: string }) => string };
    findAccount?: (ctx: unknown, sub: string) => Promise<Account | undefined>;
  };
  export type InteractionResults = Record<string, unknown>;
  export type InteractionDetails = {
    uid: string;
    prompt: { name: string; reasons: string[]; details: Record<string, unknown> };
    params: Record<string, unknown>;
    session?: { accountId: string };
    grantId?: string;
  };
  export class Grant {
    constructor(opts: { accountId: string; clientId: string });
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  }
  export class Provider {
    constructor(issuer: string, configuration?: Configuration);
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>;
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: InteractionResults,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
    Grant: typeof Grant & { find(id: string): Promise<Grant | undefined> };
  }
  export default Provider;
}
