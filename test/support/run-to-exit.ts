import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface Exited {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a TypeScript file of the repository in its own Node process, compiled as the tests are
 * (bench/ts-register.mjs, `#svc/auth` from source). Resolves once it has exited and its pipes have
 * closed; rejects, after killing it, if it has not `deadlineMs` after it printed `closed`.
 */
export function runToExit(file: string, args: string[], deadlineMs: number): Promise<Exited> {
  const child = spawn(process.execPath, ['--conditions=source', '--import', './bench/ts-register.mjs', file, ...args], { cwd: ROOT });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    let deadline: NodeJS.Timeout | undefined;
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      if (deadline === undefined && /^closed$/m.test(stdout)) {
        deadline = setTimeout(() => {
          child.kill('SIGKILL');
          reject(new Error(`${file} did not exit within ${deadlineMs} ms of closing:\n${stdout}${stderr}`));
        }, deadlineMs);
      }
    });
    // 'close', not 'exit': the pipes are closed too, so the output is read whole.
    child.on('close', (code) => {
      clearTimeout(deadline);
      resolve({ code, stdout, stderr });
    });
  });
}
