pragma circom 2.0.0;

// A small test circuit for the snarkjs cross-checks: N rounds of x <- x*x + k*y + i, with a
// public input a, a private input b and two public outputs. Constraint count: N + 2.
template Chain(N) {
    signal input a;      // public
    signal input b;      // private
    signal output out;
    signal output sum;

    signal x[N + 1];
    signal acc[N + 1];
    x[0] <== a + b;
    acc[0] <== a * b;
    for (var i = 0; i < N; i++) {
        x[i + 1] <== x[i] * x[i] + 3 * b + i;
        acc[i + 1] <== acc[i] + 5 * x[i + 1];
    }
    out <== x[N];
    sum <== acc[N] * b;
}

component main {public [a]} = Chain(200);
