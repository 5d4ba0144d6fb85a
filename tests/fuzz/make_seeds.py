#!/usr/bin/env python3
"""Writes the seed corpus of the fuzz targets (tests/fuzz/corpus/<target>/) from hand-built
protobuf encodings (cuzk.v1 field numbers), configuration snippets and small parameter files.
Usage: make_seeds.py [PARAMS_DIR PROOF_JSON DEFAULTS_TOML]: with the optional arguments it also
copies a test-circuit k=4 .params/.vk, a proof and `cuzk-daemon --print-config` output."""
import base64, json, os, sys

here = os.path.dirname(os.path.abspath(__file__))

def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)

def field(num, wire, payload):
    key = varint((num << 3) | wire)
    if wire == 0:
        return key + varint(payload)
    return key + varint(len(payload)) + payload

def s(num, text):
    return field(num, 2, text if isinstance(text, bytes) else text.encode())

def write(target, name, data):
    d = os.path.join(here, "corpus", target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)

# --- fuzz_request ---
tc = field(1, 0, 10) + field(2, 0, 2) + field(3, 0, 7)
test_req = s(1, "tc-1") + field(2, 0, 100) + s(100, tc)
porep = (s(1, "porep-1000-1") + field(2, 0, 1) + field(3, 0, 34359738368) + field(4, 0, 8) + field(5, 0, 2) +
         s(10, b'{"SectorNum":1,"Phase1Out":"e30=","SectorSize":34359738368}') + field(20, 0, 1) + field(21, 0, 1000))
wpost = (s(1, "wdpost") + field(2, 0, 3) + field(3, 0, 34359738368) + field(4, 0, 13) + field(5, 0, 3) +
         s(11, b"\x01" * 40) + s(11, b"\x02" * 40) + s(22, b"\x00" * 32) + field(23, 0, 1))
winning = s(1, "win") + field(2, 0, 4) + s(11, b"\x07" * 64) + s(22, b"\x09" * 31)
snap = (s(1, "snap") + field(2, 0, 2) + s(11, b"\x03" * 50) + s(30, b"\x00" * 32) + s(31, b"\x01" * 32) +
        s(32, b"\x02" * 32))
write("fuzz_request", "submit_test_circuit", b"\x00" + test_req)
write("fuzz_request", "submit_porep", b"\x00" + porep)
write("fuzz_request", "submit_wpost", b"\x00" + wpost)
write("fuzz_request", "submit_winning_short_randomness", b"\x00" + winning)
write("fuzz_request", "submit_snap", b"\x00" + snap)
write("fuzz_request", "submit_unknown_kind", b"\x00" + field(2, 0, 7) + field(5, 0, 9))
write("fuzz_request", "submit_garbage", b"\x00\xff\xff\xff\x0f\x12")
write("fuzz_request", "prove_test_circuit", b"\x01" + s(1, test_req))
write("fuzz_request", "prove_porep", b"\x01" + s(1, porep))
for cid in ["porep-32g", "snap-64g", "test-circuit-k10", "test-circuit-k023", "test-circuit-k99"]:
    write("fuzz_request", "preload_" + cid, b"\x02" + s(1, cid))
write("fuzz_request", "await_with_timeout", b"\x03" + s(1, "job-1") + field(2, 0, 5000))

# --- fuzz_config ---
write("fuzz_config", "minimal", b'[daemon]\nlisten = "127.0.0.1:9820"\n')
write("fuzz_config", "full", b'''[daemon]
listen = "unix:///run/curio/cuzk.sock"
status_listen = "127.0.0.1:9821"
shutdown_grace = "5s"
max_message_size = "256MiB"
[srs]
param_cache = "/var/tmp/filecoin-proof-parameters"
preload = ["porep-32g", "test-circuit-k10"]
[memory]
total_budget = "1.5TiB"
safety_margin = "5GiB"
eviction_min_idle = "2m"
[gpus]
backend = "cpu"
devices = [0, 1]
gpu_workers_per_device = 2
[scheduler]
max_pending_jobs = 16
result_retention = "10m"
[synthesis]
concurrency = 2
[logging]
level = "debug"
format = "json"
''')
write("fuzz_config", "unknown_key", b'[memory]\ntotl_budget = "1GiB"\n')
write("fuzz_config", "bad_size", b'[memory]\ntotal_budget = "12 parsecs"\n')
write("fuzz_config", "bad_toml", b'[daemon\nlisten = \n')
write("fuzz_config", "sizes", b'[memory]\ntotal_budget = "256G"\nsafety_margin = 1073741824\n')

# --- fuzz_param_files ---
manifest = {
    "v28-x.params": {"cid": "QmX", "digest": "6a388072a518cf46ebd661f5cc46900a", "sector_size": 34359738368},
    "v28-x.vk": {"cid": "QmY", "digest": "0c7b4aac1c40fdb7eb82bc355b41addf", "sector_size": 34359738368},
}
write("fuzz_param_files", "manifest", b"\x00" + json.dumps(manifest, indent=2).encode())
write("fuzz_param_files", "manifest_bad", b"\x00" + b'{"a": {"digest": "ab"')
write("fuzz_param_files", "verified_record",
      b"\x01" + ("ab" * 64 + "  7800  1796052661000000000  cuzk-test-circuit-k4-v1.params\n").encode())
if len(sys.argv) == 4:
    params_dir, proof_json, defaults = sys.argv[1:]
    with open(os.path.join(params_dir, "cuzk-test-circuit-k4-v1.params"), "rb") as f:
        params = f.read()
    with open(os.path.join(params_dir, "cuzk-test-circuit-k4-v1.vk"), "rb") as f:
        vk = f.read()
    write("fuzz_param_files", "params_k4", b"\x02" + params)
    write("fuzz_param_files", "params_k4_truncated", b"\x02" + params[: len(params) // 2])
    write("fuzz_param_files", "vk_k4", b"\x03" + vk)
    with open(proof_json) as f:
        proof = base64.b64decode(json.load(f)["proof"])
    write("fuzz_param_files", "proof_k4", b"\x03" + proof)
    with open(defaults, "rb") as f:
        write("fuzz_config", "print_config_defaults", f.read())
