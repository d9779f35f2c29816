// The CLI (server/cli.ts through tsx) in a child process, for the tests of its commands.
import { spawn } from 'node:child_process';
import path from 'node:path';

export type CliResult = { code: number | null; out: string; err: string };

/**
 * Runs `tsx server/cli.ts ...args` with exactly `env` (killed after `timeoutMs`); its exit code and its trimmed
 * stdout and stderr. Asynchronous on purpose: a spawnSync blocks the test worker's event loop, and several CLI
 * runs in a row on a busy machine outlast vitest's 60 s worker RPC timeout ("Timeout calling onTaskUpdate").
 */
export function runCli(env: NodeJS.ProcessEnv, args: string[], timeoutMs: number): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(path.resolve('node_modules/.bin/tsx'), ['server/cli.ts', ...args], { env, timeout: timeoutMs });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out: out.trim(), err: err.trim() }));
  });
}
