// Helpers shared by the live cross-check (crosscheck.mjs) and the committed-vector generator
// (tools/gen/noble_vectors.mjs): the deterministic PRNG both use and the hex encodings both
// print. Kept in one place so that the committed vectors and the live requests are drawn and
// written the same way.

// splitmix64 (Steele, Lea, Flood 2014): a 64-bit generator that is cheap, seedable and the same in
// every language, so a printed seed reproduces a run. Returns a function giving the next output.
const M64 = (x) => BigInt.asUintN(64, x);
export function splitmix64(s0) {
  let s = M64(s0);
  return () => {
    s = M64(s + 0x9e3779b97f4a7c15n);
    let z = s;
    z = M64((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n);
    z = M64((z ^ (z >> 27n)) * 0x94d049bb133111ebn);
    return z ^ (z >> 31n);
  };
}

// Uniform in [0, n) by rejection sampling on bitlen(n)-bit candidates built from consecutive
// 64-bit outputs (first output = most significant word). Expected draws < 2 per value.
export function randBelow(next, n) {
  const bits = BigInt(n.toString(2).length);
  const words = (bits + 63n) / 64n;
  const mask = (1n << bits) - 1n;
  for (;;) {
    let v = 0n;
    for (let i = 0n; i < words; i++) v = (v << 64n) | next();
    v &= mask;
    if (v < n) return v;
  }
}

// Big-endian fixed-width hex: Fp is 48 bytes, Fr and scalars 32.
export const hexN = (x, bytes) => x.toString(16).padStart(bytes * 2, '0');
export const fpHex = (x) => hexN(x, 48);
export const frHex = (x) => hexN(x, 32);

// Fp12 as 12 Fp in the order c0.c0.c0, c0.c0.c1, c0.c1.c0, ..., c1.c2.c1, built from the tower
// fields explicitly (noble's own byte form is not what our tests parse).
export function fp12Hex(e) {
  const out = [];
  for (const f6 of [e.c0, e.c1])
    for (const f2 of [f6.c0, f6.c1, f6.c2]) out.push(fpHex(f2.c0), fpHex(f2.c1));
  return out.join('');
}

// k*P for any k in [0, r): noble's multiply() rejects 0.
export const mul = (P, k) => (k === 0n ? P.multiplyUnsafe(0n) : P.multiply(k));
