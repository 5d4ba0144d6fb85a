#!/usr/bin/env node
// Live cross-check of the cuzk crosscheck binary against @noble/curves.
//
// Usage: node tests/noble/crosscheck.mjs <path-to-cuzk-crosscheck-binary> [--seed N] [--count N]
//
// Generates `count` random requests of every kind from a seeded PRNG (the seed is printed first
// so that a failing run can be reproduced with --seed), pipes them to the binary's stdin (one per
// line), reads one response line per request from its stdout, and compares each response byte
// for byte with the answer computed by noble. Prints every mismatch and, last, exactly
// "N passed, M failed". Exit status 0 only if M == 0 and the binary behaved (exit 0, right
// number of lines). See tests/noble/README.md for the request protocol.

import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
// @noble/curves 1.9.7 (see package.json). Its exports map serves this specifier (and the one
// without `.js`) from the ESM build. In 1.9.x `G1.Point` is the current name of the point class
// (`G1.ProjectivePoint` is a deprecated alias); toHex(isCompressed) and fromHex are unchanged.
import { bls12_381 as bls } from '@noble/curves/bls12-381.js';
import { fp12Hex, fpHex, frHex, hexN, mul, randBelow as randBelowFrom, splitmix64 } from './noble_common.mjs';

function usage(msg) {
  if (msg) console.error(`crosscheck: ${msg}`);
  console.error('usage: node tests/noble/crosscheck.mjs <cuzk-crosscheck-binary> [--seed N] [--count N] [--timeout SEC]');
  process.exit(2);
}

// ---------- arguments ----------
let binary;
let seed;
let count = 24;
let timeoutSec = 120;
{
  const a = process.argv.slice(2);
  for (let i = 0; i < a.length; i++) {
    const need = () => (i + 1 < a.length ? a[++i] : usage(`${a[i]} needs a value`));
    if (a[i] === '--seed') {
      const v = need();
      if (!/^(0x[0-9a-fA-F]+|[0-9]+)$/.test(v)) usage(`bad seed ${v}`);
      seed = BigInt.asUintN(64, BigInt(v));
    } else if (a[i] === '--count') {
      count = Number(need());
      if (!Number.isInteger(count) || count < 1) usage('bad count');
    } else if (a[i] === '--timeout') {
      timeoutSec = Number(need());
      if (!(timeoutSec > 0)) usage('bad timeout');
    } else if (a[i].startsWith('--')) usage(`unknown option ${a[i]}`);
    else if (binary === undefined) binary = a[i];
    else usage(`unexpected argument ${a[i]}`);
  }
  if (binary === undefined) usage('missing binary path');
  if (seed === undefined) seed = BigInt(randomBytes(6).readUIntBE(0, 6));
}
console.log(`crosscheck seed = ${seed}`);

// ---------- deterministic PRNG (noble_common.mjs) ----------
const next64 = splitmix64(seed);
const randBelow = (n) => randBelowFrom(next64, n);

// ---------- noble helpers ----------
const { Fp, Fr, Fp2, Fp12 } = bls.fields;
const G1 = bls.G1.Point;
const G2 = bls.G2.Point;
const P_MOD = Fp.ORDER;
const R_MOD = Fr.ORDER;
const CU = (P) => `${P.toHex(true)} ${P.toHex(false)}`;
// Scalars: index 0 -> 0, 1 -> 1, 2 -> r-1, 3 -> small, otherwise uniform in [0, r).
function scalar(i) {
  if (i === 0) return 0n;
  if (i === 1) return 1n;
  if (i === 2) return R_MOD - 1n;
  if (i === 3) return 2n + randBelow(1n << 16n);
  return randBelow(R_MOD);
}
const nonzeroScalar = () => 1n + randBelow(R_MOD - 1n);
const fpElem = (i) => (i === 0 ? 0n : i === 1 ? 1n : i === 2 ? P_MOD - 1n : randBelow(P_MOD));
const frElem = (i) => (i === 0 ? 0n : i === 1 ? 1n : i === 2 ? R_MOD - 1n : randBelow(R_MOD));
const isSquare = (x) => {
  try {
    Fp.sqrt(x);
    return true;
  } catch {
    return false;
  }
};
// Compressed bytes of an arbitrary affine point (x, y) on E1, without noble's validity check
// (noble's toBytes refuses points outside the subgroup). Sign flag: y > (p-1)/2.
const compressRaw = (x, y) => {
  const b = Buffer.from(fpHex(x), 'hex');
  b[0] |= 0x80 | ((y * 2n) / P_MOD ? 0x20 : 0);
  return b.toString('hex');
};
function g1decAnswer(X) {
  // One deliberate difference: noble decodes 0xe0 00.. (infinity with the sign flag) as the
  // point at infinity. The Zcash serialization rules, zkcrypto's bls12_381 and blst reject it
  // (the sign flag must be clear on infinity), and so do we.
  if ((parseInt(X.slice(0, 2), 16) & 0x60) === 0x60) return 'err';
  try {
    const P = G1.fromHex(X); // decodes and runs assertValidity (range, curve, subgroup)
    return `ok ${P.toHex(false)}`;
  } catch {
    return 'err';
  }
}
// Compressed-G1 test inputs, cycling through categories.
function g1decInput(i) {
  switch (i % 8) {
    case 0: // valid point
      return G1.BASE.multiply(nonzeroScalar()).toHex(true);
    case 1: // valid point at infinity (or, every other time, a valid point with the sign bit flipped -> the negation)
      if (i % 16 === 1) return G1.ZERO.toHex(true);
      {
        const b = Buffer.from(G1.BASE.multiply(nonzeroScalar()).toHex(true), 'hex');
        b[0] ^= 0x20;
        return b.toString('hex');
      }
    case 2: // x not on the curve: x^3 + 4 is a non-square
      for (;;) {
        const x = randBelow(P_MOD);
        if (!isSquare(Fp.add(Fp.pow(x, 3n), 4n))) return compressRaw(x, 0n);
      }
    case 3: { // x >= p (fits in 381 bits)
      const x = P_MOD + randBelow((1n << 381n) - P_MOD);
      const b = Buffer.from(hexN(x, 48), 'hex');
      b[0] |= 0x80 | (next64() & 1n ? 0x20 : 0);
      return b.toString('hex');
    }
    case 4: { // compressed flag cleared on an otherwise valid 48-byte encoding
      const b = Buffer.from(G1.BASE.multiply(nonzeroScalar()).toHex(true), 'hex');
      b[0] &= 0x7f;
      return b.toString('hex');
    }
    case 5: { // infinity flag with nonzero bits (payload or sign bit)
      const b = Buffer.alloc(48);
      b[0] = 0xc0;
      const pick = Number(next64() % 3n);
      if (pick === 0) b[0] |= 0x20; // 0xe0: infinity + sign
      else if (pick === 1) b[47] = 1 + Number(next64() % 255n);
      else b[Number(next64() % 48n)] |= 1 << Number(next64() % 5n); // may hit byte 0 low bits
      return b.toString('hex');
    }
    case 6: { // on the curve, not in the prime-order subgroup
      for (;;) {
        const x = randBelow(P_MOD);
        const rhs = Fp.add(Fp.pow(x, 3n), 4n);
        if (!isSquare(rhs)) continue;
        let y = Fp.sqrt(rhs);
        if (next64() & 1n) y = Fp.neg(y);
        const P = G1.fromAffine({ x, y });
        if (P.isTorsionFree()) continue; // (probability ~ 1/h, practically never)
        return compressRaw(x, y);
      }
    }
    default: { // valid point, but with random garbage in the top-3-bit flags
      const b = Buffer.from(G1.BASE.multiply(nonzeroScalar()).toHex(true), 'hex');
      b[0] = (b[0] & 0x1f) | (Number(next64() & 7n) << 5);
      return b.toString('hex');
    }
  }
}

// ---------- build requests and expected answers ----------
const reqs = []; // { line, want }
for (let i = 0; i < count; i++) {
  const k = scalar(i);
  reqs.push({ line: `g1mul ${frHex(k)}`, want: () => CU(mul(G1.BASE, k)) });
}
for (let i = 0; i < count; i++) {
  const k = scalar(i);
  reqs.push({ line: `g2mul ${frHex(k)}`, want: () => CU(mul(G2.BASE, k)) });
}
for (let i = 0; i < count; i++) {
  const P = G1.BASE.multiply(nonzeroScalar());
  const k = scalar(i);
  reqs.push({ line: `g1mulp ${P.toHex(true)} ${frHex(k)}`, want: () => CU(mul(P, k)) });
}
for (let i = 0; i < count; i++) {
  const P = G2.BASE.multiply(nonzeroScalar());
  const k = scalar(i);
  reqs.push({ line: `g2mulp ${P.toHex(true)} ${frHex(k)}`, want: () => CU(mul(P, k)) });
}
{
  // pairings are the slow part in noble (~80 ms each); use at most 8 of them
  const nPair = Math.min(count, 8);
  for (let i = 0; i < nPair; i++) {
    // i = 0: the generators; i = 1: a = 0 (pairing with infinity = 1); else random nonzero.
    const a = i === 0 ? 1n : i === 1 ? 0n : nonzeroScalar();
    const b = i === 0 ? 1n : nonzeroScalar();
    reqs.push({
      line: `pair ${frHex(a)} ${frHex(b)}`,
      // noble refuses to pair the point at infinity; the pairing is then 1 (Fp12.ONE).
      want: () => fp12Hex(a === 0n || b === 0n ? Fp12.ONE : bls.pairing(G1.BASE.multiply(a), G2.BASE.multiply(b))),
    });
  }
}
for (let i = 0; i < count; i++) {
  const a = fpElem(i);
  const b = fpElem(i < 3 ? 2 : 5); // first three: 0, 1, p-1 times p-1
  reqs.push({ line: `fpmul ${fpHex(a)} ${fpHex(b)}`, want: () => fpHex(Fp.mul(a, b)) });
}
for (let i = 0; i < count; i++) {
  const a = fpElem(i);
  reqs.push({ line: `fpinv ${fpHex(a)}`, want: () => fpHex(a === 0n ? 0n : Fp.inv(a)) });
}
for (let i = 0; i < count; i++) {
  const a = frElem(i);
  const b = frElem(i < 3 ? 2 : 5);
  reqs.push({ line: `frmul ${frHex(a)} ${frHex(b)}`, want: () => frHex(Fr.mul(a, b)) });
}
for (let i = 0; i < count; i++) {
  const a = Fp2.create({ c0: fpElem(i), c1: fpElem((i + 1) % 6) });
  const b = Fp2.create({ c0: fpElem(6), c1: fpElem(i % 3 === 0 ? 2 : 7) });
  reqs.push({
    line: `fp2mul ${fpHex(a.c0)} ${fpHex(a.c1)} ${fpHex(b.c0)} ${fpHex(b.c1)}`,
    want: () => {
      const c = Fp2.mul(a, b);
      return `${fpHex(c.c0)} ${fpHex(c.c1)}`;
    },
  });
}
for (let i = 0; i < Math.max(count, 16); i++) {
  const X = g1decInput(i);
  reqs.push({ line: `g1dec ${X}`, want: () => g1decAnswer(X), isDec: true });
}

// Compute the expected answers first, so that once the binary runs its stdout is read without pause.
const t0 = Date.now();
for (const r of reqs) r.expected = r.want();
const nobleMs = Date.now() - t0;

// ---------- run the binary ----------
const input = reqs.map((r) => r.line).join('\n') + '\n';
const child = spawn(binary, [], { stdio: ['pipe', 'pipe', 'inherit'] });
let stdout = '';
let spawnError = null;
child.stdout.setEncoding('utf8');
child.stdout.on('data', (d) => (stdout += d));
child.on('error', (e) => (spawnError = e));
child.stdin.on('error', () => {}); // EPIPE if the binary exits early; reported via exit status
child.stdin.end(input);
let timedOut = false;
const timer = setTimeout(() => {
  timedOut = true;
  child.kill('SIGKILL');
}, timeoutSec * 1000);


const [code, signal] = await new Promise((res) => {
  if (spawnError) return res([null, null]);
  child.on('close', (c, s) => res([c, s]));
});
clearTimeout(timer);

// ---------- compare ----------
let lines = stdout.split('\n');
if (lines.length && lines[lines.length - 1] === '') lines.pop();
let passed = 0;
let failed = 0;
const problems = [];
for (let i = 0; i < reqs.length; i++) {
  const r = reqs[i];
  const got = i < lines.length ? lines[i] : undefined;
  let ok;
  if (got === undefined) ok = false;
  else if (r.isDec && r.expected === 'err') ok = got === 'err' || got.startsWith('err ');
  else ok = got === r.expected;
  if (ok) passed++;
  else {
    failed++;
    console.log(`MISMATCH #${i}\n  request: ${r.line}\n  ours:    ${got === undefined ? '<missing>' : got}\n  noble:   ${r.expected}`);
  }
}
if (spawnError) problems.push(`could not run ${binary}: ${spawnError.message}`);
if (timedOut) problems.push(`binary killed after ${timeoutSec} s timeout`);
else if (signal) problems.push(`binary killed by signal ${signal}`);
else if (!spawnError && code !== 0 && code !== null) problems.push(`binary exited with status ${code}`);
if (lines.length < reqs.length) problems.push(`binary gave ${lines.length} lines for ${reqs.length} requests`);
if (lines.length > reqs.length) {
  problems.push(`binary gave ${lines.length} lines for ${reqs.length} requests (extra output)`);
  failed += lines.length - reqs.length;
}
for (const p of problems) console.log(`ERROR: ${p}`);
console.log(`(${reqs.length} requests, noble took ${nobleMs} ms; reproduce with --seed ${seed} --count ${count})`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 && problems.length === 0 ? 0 : 1);
