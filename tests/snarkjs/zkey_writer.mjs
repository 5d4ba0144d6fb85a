#!/usr/bin/env node
// Cross-check of `cuzk zkey new` (our snarkjs .zkey / .wtns writer) against snarkjs.
//
// Usage: node tests/snarkjs/zkey_writer.mjs <path-to-cuzk> [--seed N] [--k K1,K2,...]
//
// For the built-in test circuit at each K (default 8, 9, 10) with a fresh random key and witness:
//   1. snarkjs exports the verification key from our zkey (the CLI once, then the API) and it is
//      byte-identical to `cuzk zkey export-vkey`'s;
//   2. snarkjs proves with our zkey + wtns and verifies with that key; `cuzk verify` accepts the
//      snarkjs proof; `cuzk prove` on the same files gives a proof snarkjs accepts, with the same
//      public signals;
//   3. tampering is rejected both ways: a changed public input, a changed proof coordinate (off
//      the curve), pi_c := pi_a (on the curve); a witness with one private value changed gives a
//      snarkjs proof that neither verifier accepts (the key constrains the witness).
// snarkjs is the independent side: it reads the key with its own code, computes the H scalars on
// its own roots of unity and checks pairings with its own arithmetic. Prints one line per check
// and, last, exactly "N passed, M failed". Exit status 0 iff M == 0.

import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import * as snarkjs from 'snarkjs';

import { Q, R, clone, harness, snarkjsCli } from './harness.mjs';

function usage(msg) {
  if (msg) console.error(`zkey_writer: ${msg}`);
  console.error('usage: node tests/snarkjs/zkey_writer.mjs <cuzk> [--seed N] [--k 8,9,10]');
  process.exit(2);
}

const argv = process.argv.slice(2);
if (argv.length < 1) usage();
const cuzk = resolve(argv[0]);
let seed = BigInt('0x' + randomBytes(8).toString('hex'));
let ks = [8, 9, 10];
for (let i = 1; i < argv.length; i++) {
  if (argv[i] === '--seed' && i + 1 < argv.length) seed = BigInt(argv[++i]);
  else if (argv[i] === '--k' && i + 1 < argv.length) ks = argv[++i].split(',').map(Number);
  else usage(`unknown argument ${argv[i]}`);
}
console.log(`seed ${seed}`);

const { check, run, f, main } = harness('zkey-writer', cuzk);
const silent = { debug() {}, info() {}, warn() {}, error() {} };

await main(async () => {
  for (const [idx, k] of ks.entries()) {
    const tag = `k${k}`;
    const zkey = f(`${tag}.zkey`), wtns = f(`${tag}.wtns`);
    // The witness seed: distinct per K and per run.
    const wseed = ((seed + BigInt(idx)) & 0xffffffffffffffffn).toString();
    const gen = run(['zkey', 'new', '--circuit', `test-k${k}`, '--zkey', zkey, '--wtns', wtns, '--seed', wseed,
      '--time']);
    check(`${tag}: cuzk zkey new exits 0`, gen.status === 0, gen.stderr);

    // 1. The verification key, by snarkjs and by us.
    if (idx === 0) {
      const cli = snarkjsCli(['zkey', 'export', 'verificationkey', zkey, f(`${tag}.vk.cli.json`)]);
      check(`${tag}: \`snarkjs zkey export verificationkey\` accepts our zkey`, cli.status === 0,
        `status ${cli.status}: ${cli.stdout} ${cli.stderr}`);
    }
    const vk = await snarkjs.zKey.exportVerificationKey(zkey, silent);
    const vkPath = f(`${tag}.vk.json`);
    writeFileSync(vkPath, JSON.stringify(vk, null, 1));
    const ex = run(['zkey', 'export-vkey', '--zkey', zkey, '--vkey', f(`${tag}.vk.cuzk.json`)]);
    check(`${tag}: cuzk export-vkey == snarkjs's`, ex.status === 0 &&
      readFileSync(f(`${tag}.vk.cuzk.json`), 'utf8') === readFileSync(vkPath, 'utf8'), ex.stderr);
    check(`${tag}: nPublic = 2 (x_0, y)`, vk.nPublic === 2 && vk.IC.length === 3);

    // 2. Proofs both ways.
    const sj = await snarkjs.groth16.prove(zkey, wtns, silent);
    check(`${tag}: snarkjs proves with our zkey+wtns and verifies with the exported key`,
      await snarkjs.groth16.verify(vk, sj.publicSignals, sj.proof, silent));
    const cuzkVerify = (proof, pub, t) => {
      writeFileSync(f(`${t}.proof.json`), JSON.stringify(proof));
      writeFileSync(f(`${t}.public.json`), JSON.stringify(pub));
      return run(['verify', '--vkey', vkPath, '--proof', f(`${t}.proof.json`), '--public', f(`${t}.public.json`)]);
    };
    const v = cuzkVerify(sj.proof, sj.publicSignals, 'sj');
    check(`${tag}: cuzk verify accepts the snarkjs proof`, v.status === 0, v.stderr);

    const pr = run(['prove', '--zkey', zkey, '--wtns', wtns, '--proof', f('ours.proof.json'),
      '--public', f('ours.public.json')]);
    check(`${tag}: cuzk prove exits 0`, pr.status === 0, pr.stderr);
    const ours = JSON.parse(readFileSync(f('ours.proof.json'), 'utf8'));
    const oursPub = JSON.parse(readFileSync(f('ours.public.json'), 'utf8'));
    check(`${tag}: public signals agree`, JSON.stringify(oursPub) === JSON.stringify(sj.publicSignals));
    check(`${tag}: snarkjs verifies the cuzk proof`, await snarkjs.groth16.verify(vk, oursPub, ours, silent));

    // 3. Tampering.
    for (const [who, proof, pub] of [['cuzk', ours, oursPub], ['snarkjs', sj.proof, sj.publicSignals]]) {
      const badPub = clone(pub);
      badPub[0] = ((BigInt(badPub[0]) + 1n) % R).toString();
      check(`${tag}: ${who} proof, changed public input: snarkjs rejects`,
        !(await snarkjs.groth16.verify(vk, badPub, proof, silent)));
      check(`${tag}: ${who} proof, changed public input: cuzk exits 1`, cuzkVerify(proof, badPub, 't1').status === 1);

      const badX = clone(proof);
      badX.pi_a[0] = ((BigInt(badX.pi_a[0]) + 1n) % Q).toString();
      check(`${tag}: ${who} proof, pi_a.x + 1: snarkjs rejects`, !(await snarkjs.groth16.verify(vk, pub, badX, silent)));
      check(`${tag}: ${who} proof, pi_a.x + 1: cuzk exits 1`, cuzkVerify(badX, pub, 't2').status === 1);

      const swapped = clone(proof);
      swapped.pi_c = clone(proof.pi_a);
      check(`${tag}: ${who} proof, pi_c := pi_a: snarkjs rejects`,
        !(await snarkjs.groth16.verify(vk, pub, swapped, silent)));
      check(`${tag}: ${who} proof, pi_c := pi_a: cuzk exits 1`, cuzkVerify(swapped, pub, 't3').status === 1);
    }
    if (idx === 0) {
      // The last private value + 1 (wtns: 76-byte header, then 32-byte LE values).
      const bytes = readFileSync(wtns);
      const at = bytes.length - 32;
      bytes[at] = (bytes[at] + 1) & 0xff;
      writeFileSync(f('bad.wtns'), bytes);
      const bad = await snarkjs.groth16.prove(zkey, f('bad.wtns'), silent);
      check(`${tag}: unsatisfying witness: snarkjs rejects its own proof`,
        !(await snarkjs.groth16.verify(vk, bad.publicSignals, bad.proof, silent)));
      check(`${tag}: unsatisfying witness: cuzk rejects the snarkjs proof`,
        cuzkVerify(bad.proof, bad.publicSignals, 't4').status === 1);
      const ob = run(['prove', '--zkey', zkey, '--wtns', f('bad.wtns'), '--proof', f('x.json'), '--public', f('y.json')]);
      check(`${tag}: unsatisfying witness: cuzk prove refuses (exit 1)`, ob.status === 1, `${ob.status} ${ob.stderr}`);
    }
  }
});
