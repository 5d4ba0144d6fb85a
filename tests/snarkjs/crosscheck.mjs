#!/usr/bin/env node
// Live cross-check of `cuzk prove` / `cuzk verify` against snarkjs (BLS12-381 Groth16).
//
// Usage: node tests/snarkjs/crosscheck.mjs <path-to-cuzk> <testdata/snarkjs dir> [--seed N]
//
// With the committed circuit and key (testdata/snarkjs/README.md) and fresh random inputs:
//   1. snarkjs computes the witness (chain.wasm) and a proof;
//   2. `cuzk prove` proves the same witness; `snarkjs groth16 verify` (the CLI, once) and the
//      snarkjs API accept our proof, `cuzk verify` accepts snarkjs's;
//   3. tampering is rejected both ways: a changed public input, a negated or swapped proof
//      element (valid curve points), an element off the curve, a public input >= r;
//   4. `cuzk verify` exit codes: 0 valid, 1 invalid, 2 usage/format errors;
//   5. `cuzk zkey export-vkey` writes snarkjs's verification_key.json byte for byte.
// Prints one line per check and, last, exactly "N passed, M failed". Exit status 0 iff M == 0.

import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import * as snarkjs from 'snarkjs';

import { Q, R, clone, harness, snarkjsCli } from './harness.mjs';

function usage(msg) {
  if (msg) console.error(`crosscheck: ${msg}`);
  console.error('usage: node tests/snarkjs/crosscheck.mjs <cuzk> <testdata/snarkjs> [--seed N]');
  process.exit(2);
}

const argv = process.argv.slice(2);
if (argv.length < 2) usage();
const cuzk = resolve(argv[0]);
const data = resolve(argv[1]);
let seed = BigInt('0x' + randomBytes(8).toString('hex'));
for (let i = 2; i < argv.length; i++) {
  if (argv[i] === '--seed' && i + 1 < argv.length) seed = BigInt(argv[++i]);
  else usage(`unknown argument ${argv[i]}`);
}
console.log(`seed ${seed}`);

// xorshift64* from the seed: reproducible inputs.
let state = seed || 1n;
function next64() {
  state ^= state >> 12n;
  state ^= (state << 25n) & 0xffffffffffffffffn;
  state ^= state >> 27n;
  return (state * 0x2545f4914f6cdd1dn) & 0xffffffffffffffffn;
}
function randomFr() {
  let v = 0n;
  for (let i = 0; i < 4; i++) v = (v << 64n) | next64();
  return v % R;
}

const { check, run, f, main } = harness('snarkjs', cuzk);
const writeJson = (name, v) => writeFileSync(f(name), JSON.stringify(v, null, 1));
const vkPath = join(data, 'verification_key.json');
const zkeyPath = join(data, 'chain.zkey');
const vk = JSON.parse(readFileSync(vkPath, 'utf8'));

// cuzk verify on (proof, public) given as objects; returns the exit status.
function cuzkVerify(proof, pub, tag) {
  writeJson(`${tag}.proof.json`, proof);
  writeJson(`${tag}.public.json`, pub);
  return run(['verify', '--vkey', vkPath, '--proof', f(`${tag}.proof.json`), '--public', f(`${tag}.public.json`)]);
}

await main(async () => {
  // 1. Witness and snarkjs proof for fresh inputs.
  const input = { a: randomFr().toString(), b: randomFr().toString() };
  await snarkjs.wtns.calculate(input, join(data, 'chain.wasm'), f('w.wtns'));
  const sj = await snarkjs.groth16.prove(zkeyPath, f('w.wtns'));
  check('snarkjs verifies its own proof', await snarkjs.groth16.verify(vk, sj.publicSignals, sj.proof));

  // 2. cuzk prove on the same zkey and witness.
  const pr = run(['prove', '--zkey', zkeyPath, '--wtns', f('w.wtns'), '--proof', f('ours.proof.json'),
    '--public', f('ours.public.json'), '--time']);
  check('cuzk prove exits 0', pr.status === 0, pr.stderr);
  const ours = JSON.parse(readFileSync(f('ours.proof.json'), 'utf8'));
  const oursPub = JSON.parse(readFileSync(f('ours.public.json'), 'utf8'));
  check('public.json matches snarkjs', JSON.stringify(oursPub) === JSON.stringify(sj.publicSignals),
    `${JSON.stringify(oursPub)} vs ${JSON.stringify(sj.publicSignals)}`);
  check('proof.json layout (protocol, curve, affine z)', ours.protocol === 'groth16' && ours.curve === 'bls12381' &&
    ours.pi_a[2] === '1' && ours.pi_c[2] === '1' && ours.pi_b[2][0] === '1' && ours.pi_b[2][1] === '0');
  check('snarkjs API verifies the cuzk proof', await snarkjs.groth16.verify(vk, oursPub, ours));
  {
    const cli = snarkjsCli(['groth16', 'verify', vkPath, f('ours.public.json'), f('ours.proof.json')]);
    check('`snarkjs groth16 verify` accepts the cuzk proof', cli.status === 0 && /OK/.test(cli.stdout + cli.stderr),
      `status ${cli.status}: ${cli.stdout} ${cli.stderr}`);
  }
  {
    const v = cuzkVerify(sj.proof, sj.publicSignals, 'sj');
    check('cuzk verify accepts the snarkjs proof (exit 0)', v.status === 0, v.stderr);
    const v2 = cuzkVerify(ours, oursPub, 'ours2');
    check('cuzk verify accepts the cuzk proof (exit 0)', v2.status === 0, v2.stderr);
  }
  {
    const fixed = run(['verify', '--vkey', vkPath, '--proof', join(data, 'proof.json'), '--public', join(data, 'public.json')]);
    check('cuzk verify accepts the committed snarkjs proof', fixed.status === 0, fixed.stderr);
  }

  // 3. Tampering, both ways.
  for (const [who, proof, pub] of [['cuzk', ours, oursPub], ['snarkjs', sj.proof, sj.publicSignals]]) {
    const badPub = clone(pub);
    badPub[badPub.length - 1] = ((BigInt(badPub[badPub.length - 1]) + 1n) % R).toString();
    check(`${who} proof, changed public input: snarkjs rejects`, !(await snarkjs.groth16.verify(vk, badPub, proof)));
    check(`${who} proof, changed public input: cuzk exits 1`, cuzkVerify(proof, badPub, 't1').status === 1);

    const negA = clone(proof);
    negA.pi_a[1] = ((Q - BigInt(negA.pi_a[1])) % Q).toString();
    check(`${who} proof, negated pi_a: snarkjs rejects`, !(await snarkjs.groth16.verify(vk, pub, negA)));
    check(`${who} proof, negated pi_a: cuzk exits 1`, cuzkVerify(negA, pub, 't2').status === 1);

    const swapped = clone(proof);
    swapped.pi_c = clone(proof.pi_a);
    check(`${who} proof, pi_c := pi_a: snarkjs rejects`, !(await snarkjs.groth16.verify(vk, pub, swapped)));
    check(`${who} proof, pi_c := pi_a: cuzk exits 1`, cuzkVerify(swapped, pub, 't3').status === 1);

    const offCurve = clone(proof);
    offCurve.pi_b[0] = [proof.pi_b[0][1], proof.pi_b[0][0]];
    check(`${who} proof, pi_b.x c0/c1 swapped (off curve): snarkjs rejects`,
      !(await snarkjs.groth16.verify(vk, pub, offCurve)));
    const oc = cuzkVerify(offCurve, pub, 't4');
    check(`${who} proof, pi_b.x c0/c1 swapped (off curve): cuzk exits 1`, oc.status === 1, oc.stderr);

    const bigPub = clone(pub);
    bigPub[0] = (BigInt(bigPub[0]) + R).toString();
    check(`${who} proof, public input + r: snarkjs rejects`, !(await snarkjs.groth16.verify(vk, bigPub, proof)));
    check(`${who} proof, public input + r: cuzk exits 1`, cuzkVerify(proof, bigPub, 't5').status === 1);
  }

  // 4. Exit status 2 with one line on stderr for usage and format errors.
  const oneLine = (r) => r.stderr.length > 0 && !r.stderr.includes('\n') && r.stderr.startsWith('cuzk: ');
  {
    const r = run(['verify', '--vkey', vkPath, '--proof', f('ours.proof.json')]);
    check('cuzk verify without --public: exit 2, one line', r.status === 2 && oneLine(r), `${r.status} ${r.stderr}`);
    writeFileSync(f('trunc.json'), readFileSync(f('ours.proof.json'), 'utf8').slice(0, 100));
    const t = run(['verify', '--vkey', vkPath, '--proof', f('trunc.json'), '--public', f('ours.public.json')]);
    check('cuzk verify, truncated proof.json: exit 2, one line', t.status === 2 && oneLine(t), `${t.status} ${t.stderr}`);
    const noIc = clone(vk);
    delete noIc.IC;
    writeJson('noic.json', noIc);
    const n = run(['verify', '--vkey', f('noic.json'), '--proof', f('ours.proof.json'), '--public', f('ours.public.json')]);
    check('cuzk verify, vkey without IC: exit 2, one line', n.status === 2 && oneLine(n), `${n.status} ${n.stderr}`);
    const m = run(['verify', '--vkey', f('missing.json'), '--proof', f('ours.proof.json'), '--public', f('ours.public.json')]);
    check('cuzk verify, missing file: exit 2, one line', m.status === 2 && oneLine(m), `${m.status} ${m.stderr}`);
    const u = run(['frobnicate']);
    check('cuzk unknown command: exit 2', u.status === 2 && oneLine(u), `${u.status} ${u.stderr}`);
    const z = run(['prove', '--zkey', join(data, 'witness.wtns'), '--wtns', f('w.wtns'), '--proof', f('x.json'),
      '--public', f('y.json')]);
    check('cuzk prove, a .wtns given as --zkey: exit 2, one line', z.status === 2 && oneLine(z), `${z.status} ${z.stderr}`);
  }

  // 5. Verification key export.
  {
    const e = run(['zkey', 'export-vkey', '--zkey', zkeyPath, '--vkey', f('vk.json')]);
    check('cuzk zkey export-vkey is byte-identical to snarkjs\'s', e.status === 0 &&
      readFileSync(f('vk.json'), 'utf8') === readFileSync(vkPath, 'utf8'), e.stderr);
  }
});
