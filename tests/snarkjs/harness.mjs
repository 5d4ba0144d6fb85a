// What the snarkjs cross-checks (crosscheck.mjs, zkey_writer.mjs) share: the BLS12-381 moduli,
// the pass/fail tally and its summary line, running the cuzk binary and snarkjs's own CLI, and a
// scratch directory removed at the end.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const R = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001n;
export const Q = 0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaabn;

export const clone = (x) => JSON.parse(JSON.stringify(x));

const SNARKJS_CLI = join(dirname(fileURLToPath(import.meta.url)), 'node_modules', 'snarkjs', 'build', 'cli.cjs');

// `snarkjs <args>` as a process (the CLI parses files with its own code paths).
export function snarkjsCli(args) {
  return spawnSync(process.execPath, [SNARKJS_CLI, ...args], { encoding: 'utf8' });
}

// check(name, ok, detail) prints one line per check; main(body) runs the checks (an exception
// counts as a failure), removes the scratch directory, prints exactly "N passed, M failed" and
// exits 0 iff M == 0. f(name) is a path in the scratch directory; run(args) runs cuzk.
export function harness(tag, cuzk) {
  let passed = 0;
  let failed = 0;
  const work = mkdtempSync(join(tmpdir(), `cuzk-${tag}-`));
  return {
    f: (name) => join(work, name),
    check(name, ok, detail = '') {
      if (ok) {
        passed++;
        console.log(`ok   ${name}`);
      } else {
        failed++;
        console.log(`FAIL ${name}${detail ? ': ' + detail : ''}`);
      }
    },
    run(args) {
      const r = spawnSync(cuzk, args, { encoding: 'utf8' });
      if (r.error) throw r.error;
      return { status: r.status, stdout: r.stdout, stderr: r.stderr.trim() };
    },
    async main(body) {
      try {
        await body();
      } catch (e) {
        failed++;
        console.log(`FAIL exception: ${e.stack || e}`);
      } finally {
        rmSync(work, { recursive: true, force: true });
      }
      console.log(`${passed} passed, ${failed} failed`);
      process.exit(failed === 0 ? 0 : 1);
    },
  };
}
