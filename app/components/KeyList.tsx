// The two lists of secret keys, a company's API keys (/company/api-keys) and the operator's network keys
// (/admin/network): the new key shown once, and the table of keys (name, prefix, who made it and when, last use,
// status, revoke link), each page adding its own columns (scope, expiry). One look, one behaviour on a phone.
import type { ReactNode } from 'react';
import { Link } from '@remix-run/react';
import { SecretCopy } from '#app/components/SecretCopy.tsx';
import { Truncated } from '#app/components/Truncated.tsx';
import { EmptyState } from '#app/components/ui/EmptyState.tsx';
import { Badge, type Tone } from '#app/components/ui/Badge.tsx';

/** A key's state as a badge, as every status in the portal is shown. */
const KEY_TONE: Record<string, Tone> = { active: 'ok', expired: 'warning', revoked: 'neutral' };
import { Notice } from '#app/components/ui/Notice.tsx';

type CreatedTexts = { createdTitle: string; shownOnce: string; keyLabel: string; back: string };

/** The key just made, shown this once (the page is no-store), with a copy button. */
export function KeyCreated(props: {
  idPrefix: string;
  texts: CreatedTexts;
  name: string;
  secret: string;
  backTo: string;
}) {
  const { idPrefix, texts, name, secret, backTo } = props;
  return (
    <section className="card apikeys-created" aria-labelledby={`${idPrefix}created-title`}>
      <h2 id={`${idPrefix}created-title`}>{texts.createdTitle}</h2>
      <Notice className="apikeys-warning" role="alert">
        {texts.shownOnce}
      </Notice>
      <label htmlFor={`${idPrefix}new-key`}>
        {texts.keyLabel}: <Truncated text={name} max={40} />
      </label>
      <SecretCopy id={`${idPrefix}new-key`} value={secret} />
      <p>
        <Link to={backTo}>{texts.back}</Link>
      </p>
    </section>
  );
}

export type KeyRow = {
  id: number;
  name: string;
  prefix: string;
  createdBy: string | null;
  /** Already formatted for the reader. */
  created: string;
  lastUsed: string;
  status: string;
};

/** A page's own column: its header, its cell, and whether a phone shows it. */
export type KeyColumn<K> = { header: string; cell: (key: K) => ReactNode; mobile?: boolean; when?: boolean };

type ListTexts = {
  title: string;
  listTitle: string;
  none: string;
  name: string;
  prefix: string;
  createdBy: string;
  createdAt: string;
  lastUsed: string;
  status: string;
  revoke: string;
  revokeLabel: (name: string) => string;
};

export function KeyTable<K extends KeyRow>(props: {
  idPrefix: string;
  keys: readonly K[];
  texts: ListTexts;
  statusText: (key: K) => string;
  revokePath: (key: K) => string;
  /** Columns after the prefix (e.g. scope) and after the last use (e.g. expiry). */
  afterPrefix?: KeyColumn<K>[];
  afterLastUse?: KeyColumn<K>[];
}) {
  const { idPrefix, keys, texts: k, statusText, revokePath, afterPrefix = [], afterLastUse = [] } = props;
  const cls = (c: KeyColumn<K>) => [c.mobile ? '' : 'hide-mobile', c.when ? 'apikeys-when' : ''].join(' ').trim();
  const head = (c: KeyColumn<K>) => (
    <th key={c.header} scope="col" className={c.mobile ? undefined : 'hide-mobile'}>
      {c.header}
    </th>
  );
  const cellOf = (key: K, c: KeyColumn<K>) => (
    <td key={c.header} className={cls(c) || undefined}>
      {c.cell(key)}
    </td>
  );
  return (
    <section aria-labelledby={`${idPrefix}list-title`}>
      <h2 id={`${idPrefix}list-title`}>{k.listTitle}</h2>
      {keys.length === 0 ? (
        <EmptyState>{k.none}</EmptyState>
      ) : (
        <div className="table-wrap">
          <table className="apikeys-table">
            <caption className="visually-hidden">{k.title}</caption>
            <thead>
              <tr>
                <th scope="col">{k.name}</th>
                <th scope="col" className="hide-mobile">
                  {k.prefix}
                </th>
                {afterPrefix.map(head)}
                <th scope="col" className="hide-mobile">
                  {k.createdBy}
                </th>
                <th scope="col" className="hide-mobile">
                  {k.createdAt}
                </th>
                <th scope="col" className="hide-mobile">
                  {k.lastUsed}
                </th>
                {afterLastUse.map(head)}
                <th scope="col">{k.status}</th>
                <th scope="col">
                  <span className="visually-hidden">{k.revoke}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {keys.map((key) => (
                <tr key={key.id}>
                  <td className="apikeys-name">
                    <Truncated text={key.name} max={30} />
                    <span className="only-mobile apikeys-sub">
                      <code>{key.prefix}…</code>
                    </span>
                  </td>
                  <td className="hide-mobile">
                    <code>{key.prefix}…</code>
                  </td>
                  {afterPrefix.map((c) => cellOf(key, c))}
                  <td className="hide-mobile">
                    <Truncated text={key.createdBy ?? ''} max={24} />
                  </td>
                  <td className="hide-mobile apikeys-when">{key.created}</td>
                  <td className="hide-mobile apikeys-when">{key.lastUsed}</td>
                  {afterLastUse.map((c) => cellOf(key, c))}
                  <td>
                    <Badge tone={KEY_TONE[key.status] ?? 'neutral'}>{statusText(key)}</Badge>
                  </td>
                  <td>
                    {key.status === 'active' ? (
                      <Link to={revokePath(key)} aria-label={k.revokeLabel(key.name)}>
                        {k.revoke}
                      </Link>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
