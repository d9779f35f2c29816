// A real nginx on loopback in front of local portal instances, configured from deploy/nginx/sim-portal.conf
// (loopback ports, no TLS), with its own prefix folder, configuration and pid file: for the tests
// (tests/api/instances.test.ts) and the benchmarks (bench/scale.ts). Not used by the server itself.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** The nginx binary (Debian's package puts it in /usr/sbin), or null when nginx is not installed. */
export function findNginx(): string | null {
  return ['/usr/sbin/nginx', '/usr/local/sbin/nginx', '/usr/bin/nginx'].find((p) => existsSync(p)) ?? null;
}

/** A free loopback port kept bound until released (nginx's: the instances take seconds to start, and an
 * outgoing connection of another process could take an unbound port meanwhile). */
export function heldPort(): Promise<{ port: number; release: () => Promise<void> }> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () =>
      resolve({
        port: (s.address() as { port: number }).port,
        release: () => new Promise<void>((r) => s.close(() => r())),
      }),
    );
    s.on('error', reject);
  });
}

/** The site of deploy/ with the instances on the given loopback ports and nginx listening on `listen`, without
 * TLS. Every rewrite must find its line: one that no longer does (deploy/ changed) throws, naming its pattern. */
export function siteFromDeploy(
  ports: number[],
  listen: number,
  file = path.resolve('deploy/nginx/sim-portal.conf'),
): string {
  let site = readFileSync(file, 'utf8');
  const rewrite = (from: RegExp, to: string) => {
    if (!from.test(site)) throw new Error(`${path.relative(process.cwd(), file)} no longer has ${from}`);
    site = site.replace(from, to);
  };
  const servers = ports.map((p) => `    server 127.0.0.1:${p} max_fails=2 fail_timeout=10s;`).join('\n');
  rewrite(/( {4}server 127\.0\.0\.1:\d+ [^\n]*\n)+/, `${servers}\n`);
  rewrite(/server \{\n {4}listen 80;[\s\S]*?\n\}\n/, ''); // the redirect to https
  rewrite(/ *# nginx 1\.25\.1[^\n]*\n/, '');
  rewrite(/ {4}listen 443 ssl http2;\n {4}listen \[::\]:443 ssl http2;\n/, `    listen 127.0.0.1:${listen};\n`);
  rewrite(/ {4}ssl_[^\n]*\n( {4}ssl_[^\n]*\n)*/, '');
  return site;
}

export type LocalNginx = {
  child: ChildProcess;
  /** http://127.0.0.1:<port> */
  url: string;
  port: number;
  /** The folder holding its configuration, logs and temporary files (removed by stop()). */
  prefix: string;
  /** Stops nginx (SIGTERM, then SIGKILL after 10 s) and removes its folder. */
  stop: () => Promise<void>;
};

/** Waits until GET url answers 2xx; fails when `child` exits first or after `ms`. */
export async function waitForOk(url: string, child?: ChildProcess, ms = 90_000): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    if (child && child.exitCode !== null) throw new Error(`${url}: the process exited with ${child.exitCode}`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      await res.arrayBuffer();
      if (res.ok) return;
    } catch {
      // not yet
    }
    if (Date.now() > until) throw new Error(`${url} did not answer in ${ms} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * Starts nginx (one worker, in the foreground, no access log) with deploy/'s site in front of the instances on
 * `ports`, listening on the held port (released just before nginx binds it); resolves once GET /livez answers
 * through it (an instance must be up).
 */
export async function startNginx(
  ports: number[],
  listen: { port: number; release: () => Promise<void> },
  opts: { nginx?: string; readyPath?: string } = {},
): Promise<LocalNginx> {
  const nginx = opts.nginx ?? findNginx();
  if (!nginx) throw new Error('nginx is not installed (apt-get install nginx)');
  const prefix = mkdtempSync(path.join(os.tmpdir(), 'sim-portal-nginx-'));
  writeFileSync(path.join(prefix, 'site.conf'), siteFromDeploy(ports, listen.port));
  const temp = (kind: string) => `${kind}_temp_path ${path.join(prefix, kind)};`;
  writeFileSync(
    path.join(prefix, 'nginx.conf'),
    [
      'daemon off;',
      'master_process on;',
      'worker_processes 1;',
      // As root, the workers would run as nobody and could not use the temporary folders made here.
      process.getuid?.() === 0 ? 'user root;' : '',
      `pid ${path.join(prefix, 'nginx.pid')};`,
      `error_log ${path.join(prefix, 'error.log')} warn;`,
      'events { worker_connections 1024; }',
      'http {',
      '  access_log off;',
      `  ${temp('client_body')} ${temp('proxy')} ${temp('fastcgi')} ${temp('uwsgi')} ${temp('scgi')}`,
      `  include ${path.join(prefix, 'site.conf')};`,
      '}',
    ].join('\n'),
  );
  await listen.release();
  const child = spawn(nginx, ['-c', path.join(prefix, 'nginx.conf'), '-p', prefix], { stdio: 'inherit' });
  const url = `http://127.0.0.1:${listen.port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      child.kill('SIGTERM');
      await exited;
      clearTimeout(timer);
    }
    rmSync(prefix, { recursive: true, force: true });
  };
  try {
    await waitForOk(`${url}${opts.readyPath ?? '/livez'}`, child, 20_000);
  } catch (e) {
    await stop();
    throw e;
  }
  return { child, url, port: listen.port, prefix, stop };
}

/** The pids of nginx's processes: the master and its workers (children, from /proc). */
export function nginxPids(master: number): number[] {
  const pids = [master];
  for (const entry of readdirSync('/proc').filter((e) => /^\d+$/.test(e))) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // pid (comm) state ppid ...: comm may hold spaces, so read after its closing parenthesis.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === master) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}
