"""Writes the mg corpus (`conformance/cases/mg/*.json`): encode vectors for
every grain type (OMS 1.3 §5.1 ten types and the `fact` alias), decode
vectors, and reject vectors for every blob-level ERR_* code of OMS §19/§21.

Encode expectations come from our `oms` crate (`cal mg encode`) and are
cross-checked independently with PyPI `msgpack`: the payload is re-packed
with lexicographically sorted keys and shortest integers and must give the
same bytes, and the address must be SHA-256 of the blob. Reject vectors are
built by hand from a valid blob; the expected code is the one OMS names, and
`cal mg decode` is run to list disagreements (mg-disagreements.md).

Usage: `python3 conformance/authoring/execute_mg/mg_cases.py` (`CAL_BIN` overrides the binary).
"""

import hashlib
import json
import os
import struct
import subprocess
import sys

import msgpack

from oracle import CAL, ROOT

AGENT = "did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK"
T0 = 1768471200000  # 2026-01-15T10:00:00Z
CASES = {}
DISAGREE = []


def encode(grain, extra_args=()):
    out = subprocess.run([CAL, "mg", "encode", *extra_args], input=json.dumps(grain).encode(), capture_output=True)
    if out.returncode != 0:
        return None, out.stderr.decode().split(":")[0]
    d = json.loads(out.stdout)
    return d, None


def decode(hexstr):
    out = subprocess.run([CAL, "mg", "decode", "--hex"], input=hexstr.encode(), capture_output=True)
    if out.returncode != 0:
        return None, out.stderr.decode().split(":")[0].strip()
    return json.loads(out.stdout), None


def canon_pack(v):
    """Canonical MessagePack per OMS §4, independently of the oms crate."""
    if isinstance(v, dict):
        items = sorted(v.items(), key=lambda kv: kv[0].encode())
        return _map_header(len(items)) + b"".join(
            canon_pack(k) + canon_pack(x) for k, x in items)
    if isinstance(v, list):
        return _array_header(len(v)) + b"".join(canon_pack(x) for x in v)
    if isinstance(v, float):
        return b"\xcb" + struct.pack(">d", v)
    return msgpack.packb(v, use_bin_type=True)


def _map_header(n):
    return bytes([0x80 | n]) if n < 16 else (b"\xde" + struct.pack(">H", n))


def _array_header(n):
    return bytes([0x90 | n]) if n < 16 else (b"\xdc" + struct.pack(">H", n))


def cross_check(blob_hex, address):
    blob = bytes.fromhex(blob_hex)
    payload = msgpack.unpackb(blob[9:], raw=False, strict_map_key=False)
    ok = canon_pack(payload) == blob[9:] and hashlib.sha256(blob).hexdigest() == address
    return ok


def case(area, cid, level, tags, sections, body, flags=None, desc=None):
    c = {"id": cid, "kind": "mg", "level": level, "tags": tags, "sections": sections}
    if flags:
        c["flags"] = flags
    if desc:
        c["description"] = desc
    c.update(body)
    CASES.setdefault(area, []).append(c)


def base(t, **kw):
    g = {"type": t, "created_at": T0, "namespace": "shared", "author_did": AGENT}
    g.update(kw)
    return g


TYPES = {
    "belief": [base("belief", subject="user", relation="prefers", object="dark mode", confidence=0.9),
               base("belief", subject="alice", relation="mg:knows", object="SQL", confidence=1.0, importance=0.25,
                    structural_tags=["knowledge", "work"], user_id="alice", source_type="user_explicit"),
               base("belief", subject="zoë", relation="mg:prefers", object="crème brûlée", confidence=0.5),
               base("belief", subject="s", relation="r", object={"k": "v", "a": [1, 2]}, confidence=0.0)],
    "fact": [base("fact", subject="user", relation="prefers", object="dark mode", confidence=0.9, source_type="user_explicit")],
    "event": [base("event", content="User asked about dark mode settings", importance=0.5),
              base("event", content="hi", role="user", session_id="s-1", user_id="bob"),
              base("event", content="Booked.", role="assistant", model_id="model-a", session_id="s-1",
                   parent_message_id="a" * 64)],
    "state": [base("state", context={"id": "prep", "step": 2}, plan=["a", "b"]),
              base("state", context={})],
    "workflow": [base("workflow", steps=["collect", "send"], trigger="on:schedule"),
                 base("workflow", steps=["x"], trigger="on:user_message", subject="agent", relation="mg:requires_steps")],
    "action": [base("action", tool_name="get_weather", input={"city": "Lisbon"}, content="sunny", is_error=False),
               base("action", action_phase="call", tool_name="send_email", input={"to": "carol"}, tool_call_id="c-1"),
               base("action", action_phase="result", tool_call_id="c-1", content="sent", is_error=False,
                    derived_from=["b" * 64])],
    "observation": [base("observation", observer_id="obs-1", observer_type="agent:monitor"),
                    base("observation", observer_id="cam", observer_type="sensor:camera", subject="room",
                         relation="mg:perceives", object="door open", confidence=0.75)],
    "goal": [base("goal", description="ship it", goal_state="active"),
             base("goal", description="retire API", goal_state="failed", deadline=1772323200000, importance=0.4,
                  depends_on=["c" * 64])],
    "reasoning": [base("reasoning", inference_method="deductive", premises=["d" * 64], conclusion="use dark theme"),
                  base("reasoning")],
    "consensus": [base("consensus", participating_observers=["did:web:a", "did:web:b"], threshold=2, agreement_count=2,
                       dissent_count=0, agreed_content="ready")],
    "consent": [base("consent", subject_did="did:web:alice", grantee_did="did:web:agent", scope=["store"], is_withdrawal=False,
                     purpose="personalization"),
                base("consent", subject_did="did:web:bob", grantee_did="did:web:agent", scope=[], is_withdrawal=True,
                     prior_consent="e" * 64)],
}

INTS = [0, 1, 127, 128, 255, 256, 65535, 65536, 4294967295, 4294967296, -1, -32, -33, -128, -129, -32768, -32769]


def encode_vectors():
    n = 0
    for t, grains in TYPES.items():
        for g in grains:
            n += 1
            d, err = encode(g)
            assert d, (g, err)
            if not cross_check(d["blob_hex"], d["content_address"]):
                DISAGREE.append(f"encode {t} #{n}: msgpack cross-check differs")
            case("encode", f"mg.encode.{t}.{n:03d}", "core", ["encode", t], ["OMS 4", "OMS 5"],
                 {"grain": g, "expect": {"hex": d["blob_hex"], "address": d["content_address"]}})
    for i, v in enumerate(INTS):
        g = base("belief", subject="n", relation="count", object="x", confidence=0.5, success_count=v)
        d, err = encode(g)
        if d is None:
            continue
        if not cross_check(d["blob_hex"], d["content_address"]):
            DISAGREE.append(f"encode int {v}: msgpack cross-check differs")
        case("encode", f"mg.encode.int.{i + 1:03d}", "core", ["encode", "integer", "shortest"], ["OMS 4.2"],
             {"grain": g, "expect": {"hex": d["blob_hex"], "address": d["content_address"]}},
             desc=f"The integer {v} in its shortest MessagePack form.")
    for i, f in enumerate([0.1, 0.5, 1.0, 0.0, 1e-300, 0.3333333333333333]):
        g = base("belief", subject="f", relation="r", object="o", confidence=f if f <= 1 else 0.5)
        d, _ = encode(g)
        case("encode", f"mg.encode.float.{i + 1:03d}", "core", ["encode", "float64"], ["OMS 4.3"],
             {"grain": g, "expect": {"hex": d["blob_hex"], "address": d["content_address"]}})
    extra = [
        ("nfc", base("belief", subject="zoe\u0301", relation="r", object="o", confidence=0.5), ["OMS 4.4"],
         "A decomposed string is NFC-normalized before encoding."),
        ("null-omitted", base("belief", subject="s", relation="r", object="o", confidence=0.5, user_id=None), ["OMS 4.5"],
         "A null field is omitted."),
        ("nested-order", base("state", context={"zeta": 1, "alpha": {"y": 2, "b": 3}, "Beta": 0}), ["OMS 4.1"],
         "Nested map keys are sorted by UTF-8 bytes, upper case first."),
        ("array-order", base("belief", subject="s", relation="r", object="o", confidence=0.5, structural_tags=["z", "a", "m"]),
         ["OMS 4.6"], "Arrays keep their order."),
        ("datetime", base("belief", subject="s", relation="r", object="o", confidence=0.5, created_at="2026-01-15T10:00:00Z"),
         ["OMS 4.8"], "An RFC 3339 created_at becomes epoch milliseconds."),
        ("long-string", base("belief", subject="s" * 40, relation="r", object="o" * 300, confidence=0.5), ["OMS 4"],
         "str8 and str16 lengths."),
        ("many-tags", base("belief", subject="s", relation="r", object="o", confidence=0.5,
                           structural_tags=[f"t{i}" for i in range(20)]), ["OMS 4"], "array16 header for 20 elements."),
        ("no-namespace", {"type": "belief", "subject": "s", "relation": "r", "object": "o", "confidence": 0.5,
                          "created_at": T0}, ["OMS 3.1"], "Without a namespace the header hash is of the empty default."),
    ]
    for name, g, secs, desc in extra:
        d, err = encode(g)
        if d is None:
            DISAGREE.append(f"encode {name}: refused with {err}")
            continue
        case("encode", f"mg.encode.rule.{name}", "core", ["encode", name], secs,
             {"grain": g, "expect": {"hex": d["blob_hex"], "address": d["content_address"]}}, desc=desc)
    # OMS §21.1 verbatim: the spec's own bytes and address.
    v1 = {"type": "fact", "subject": "user", "relation": "prefers", "object": "dark mode", "confidence": 0.9,
          "source_type": "user_explicit", "created_at": 1768471200000, "namespace": "shared", "author_did": AGENT}
    d, _ = encode(v1)
    spec_addr = "3288d0d41cf49a1d428e404f0b6a6fe60388be9536937557f6139b813d53a520"
    if d["content_address"] != spec_addr:
        DISAGREE.append("OMS vector 1: our address differs from the spec's")
    spec_hex = d["blob_hex"]
    case("encode", "mg.encode.oms-vector-1", "core", ["encode", "fact", "spec-vector"], ["OMS 21.1"],
         {"grain": v1, "expect": {"hex": spec_hex, "address": spec_addr}},
         desc="OMS §21.1 Vector 1, byte for byte.")


def sensitivity_vectors():
    """Tags that require a classification raise the header's sensitivity bits (OMS §3.1.1 bits 6-7, §13)."""
    rows = [("phi", ["phi:diagnosis"], 0xC0), ("pii", ["pii:email"], 0x80), ("phi-over-pii", ["pii:email", "phi:lab_result"], 0xC0),
            ("plain", ["preference"], 0x00), ("sec", ["sec:credentials"], 0x80), ("legal", ["legal:privileged"], 0x80),
            ("reg", ["reg:sox"], 0x40), ("reg-and-phi", ["reg:hipaa", "phi:diagnosis"], 0xC0)]
    for name, tags, bits in rows:
        g = base("belief", subject="p", relation="r", object="o", confidence=0.5, structural_tags=tags)
        d, err = encode(g)
        flags = bytes.fromhex(d["blob_hex"])[1]
        if (flags & 0xC0 != bits) if name != "reg" else (flags & 0xC0 < bits):
            DISAGREE.append(f"sensitivity {name}: header flags 0x{flags:02x}, OMS wants bits 0x{bits:02x}")
        case("encode", f"mg.encode.sensitivity.{name}", "core", ["encode", "sensitivity"], ["OMS 3.1.1", "OMS 13"],
             {"grain": g, "expect": {"hex": d["blob_hex"], "address": d["content_address"]}},
             desc=f"Header sensitivity bits 0x{bits:02x} for tags {tags}." + (
                 " OMS leaves the tier above internal to the policy engine, so this case does not gate." if name == "reg" else ""),
             flags=["should"] if name == "reg" else None)


def cbor_vectors():
    """CBOR payloads (flag bit 5) decode to the same grain values (OMS §3.1.1, §4)."""
    n = 0
    for t, grains in TYPES.items():
        g = grains[0]
        n += 1
        d, err = encode(g, ["--cbor"])
        if d is None:
            DISAGREE.append(f"cbor {t}: refused with {err}")
            continue
        got, err = decode(d["blob_hex"])
        if got is None:
            DISAGREE.append(f"cbor {t}: decode says {err}")
            continue
        case("decode", f"mg.decode.cbor.{t}.{n:03d}", "core", ["decode", "cbor", t], ["OMS 3.1.1", "OMS 4"],
             {"hex": d["blob_hex"], "expect": {"grain": got, "address": d["content_address"]}}, flags=["should"],
             desc="A CBOR-encoded grain (flags bit 5); CBOR support is optional, so the case does not gate.")


def decode_of_encode_vectors():
    """Every rule-oriented encode vector read back: integer boundaries, floats, NFC, nesting, sensitivity, OMS §21.1."""
    for c in list(CASES["encode"]):
        suffix = c["id"][len("mg.encode."):]
        if suffix.split(".")[0] not in ("int", "float", "rule", "sensitivity", "oms-vector-1"):
            continue
        got, err = decode(c["expect"]["hex"])
        if got is None:
            DISAGREE.append(f"decode of {c['id']}: {err}")
            continue
        case("decode", f"mg.decode.of.{suffix}", "core", ["decode"] + c["tags"][1:], c["sections"],
             {"hex": c["expect"]["hex"], "expect": {"grain": got, "address": c["expect"]["address"]}}, flags=c.get("flags"),
             desc=f"The blob of {c['id']} decodes to its grain value.")


def decode_vectors():
    n = 0
    for t, grains in TYPES.items():
        for g in grains:
            n += 1
            d, _ = encode(g)
            got, err = decode(d["blob_hex"])
            assert got is not None, err
            case("decode", f"mg.decode.{t}.{n:03d}", "core", ["decode", t], ["OMS 4", "OMS 5"],
                 {"hex": d["blob_hex"], "expect": {"grain": got, "address": d["content_address"]}})


# ---- reject vectors -------------------------------------------------------

BELIEF = {"c": 0.5, "ca": T0, "ns": "shared", "o": "b", "r": "likes", "s": "a", "t": "belief"}


def header(type_byte=1, flags=0):
    d, _ = encode(base("belief", subject="a", relation="likes", object="b", confidence=0.5))
    h = bytearray(bytes.fromhex(d["blob_hex"])[:9])
    h[1], h[2] = flags, type_byte
    return bytes(h)


def with_fields(**kw):
    m = dict(BELIEF)
    for k, v in kw.items():
        if v is None:
            m.pop(k, None)
        else:
            m[k] = v
    return m


def reject_vectors():
    H = header()
    n = {}

    def rej(code, payload_or_blob, desc, raw=False, hdr=None, level="core", flags=None, sections=None):
        n[code] = n.get(code, 0) + 1
        blob = payload_or_blob if raw else (hdr or H) + payload_or_blob
        cid = f"mg.reject.{code.lower().replace('err_', '').replace('_', '-')}.{n[code]:03d}"
        case("reject", cid, level, ["reject", code], sections or ["OMS 19", "OMS 21"], {"hex": blob.hex(), "expect": {"error": code}},
             flags=flags, desc=desc)
        _, err = decode(blob.hex())
        if err != code:
            DISAGREE.append(f"{cid}: expected {code}, `cal mg decode` says {err} ({desc})")

    good = canon_pack(BELIEF)
    # ERR_TOO_SHORT
    for b in [b"", b"\x01", b"\x01\x00", H[:5], H[:8], H, H[:3], H[:4], H[:6], H[:7]]:
        rej("ERR_TOO_SHORT", b, f"{len(b)} bytes: shorter than the 10-byte minimum", raw=True, sections=["OMS 3.3", "OMS 19"])
    # ERR_VERSION
    for v in [0x00, 0x02, 0x03, 0x10, 0x7F, 0x80, 0xFF, 0x11, 0x20, 0xFE]:
        rej("ERR_VERSION", bytes([v]) + H[1:] + good, f"version byte 0x{v:02x}", raw=True, sections=["OMS 3.1.1", "OMS 19"])
    # ERR_CORRUPT: malformed MessagePack, non-canonical forms, duplicates, BOM
    for cut in [1, 3, 10, len(good) // 2, len(good) - 1]:
        rej("ERR_CORRUPT", good[:-cut], f"payload truncated by {cut} bytes")
    for tail in [b"\xc0", b"\x00", b"\x80", good]:
        rej("ERR_CORRUPT", good + tail, f"trailing bytes after the payload map ({tail[:1].hex()}…)")
    rej("ERR_CORRUPT", b"\xc1", "reserved MessagePack byte 0xc1")
    unsorted = b"\x87" + b"".join(canon_pack(k) + canon_pack(v) for k, v in sorted(BELIEF.items(), reverse=True))
    rej("ERR_CORRUPT", unsorted, "map keys in reverse order", sections=["OMS 4.1", "OMS 19"])
    swapped = list(sorted(BELIEF.items()))
    swapped[0], swapped[1] = swapped[1], swapped[0]
    rej("ERR_CORRUPT", b"\x87" + b"".join(canon_pack(k) + canon_pack(v) for k, v in swapped), "keys c and ca swapped",
        sections=["OMS 4.1"])
    dup = b"\x88" + canon_pack("c") + canon_pack(0.5) + b"".join(canon_pack(k) + canon_pack(v) for k, v in sorted(BELIEF.items()))
    rej("ERR_CORRUPT", dup, "duplicate key c", sections=["OMS 4.1"])

    def with_raw(key, raw_value):
        items = sorted(dict(BELIEF, **{key: 0}).items())
        return bytes([0x80 | len(items)]) + b"".join(canon_pack(k) + (raw_value if k == key else canon_pack(v)) for k, v in items)

    for key, raw_v, what in [("sc", b"\xcc\x05", "5 as uint8"), ("sc", b"\xcd\x00\x64", "100 as uint16"),
                             ("sc", b"\xce\x00\x00\x03\xe8", "1000 as uint32"), ("sc", b"\xcf" + (70000).to_bytes(8, "big"),
                                                                                "70000 as uint64"),
                             ("sc", b"\xd0\x05", "5 as int8"), ("fc", b"\xd1\x00\x10", "16 as int16"),
                             ("sc", b"\xcd\x00\xff", "255 as uint16")]:
        rej("ERR_CORRUPT", with_raw(key, raw_v), f"non-shortest integer: {what}", sections=["OMS 4.2"])
    items = sorted(BELIEF.items())
    f32 = b"\x87" + b"".join(canon_pack(k) + (b"\xca" + struct.pack(">f", 0.5) if k == "c" else canon_pack(v)) for k, v in items)
    rej("ERR_CORRUPT", f32, "confidence as float32", sections=["OMS 4.3"])
    str8 = b"\x87" + b"".join(canon_pack(k) + (b"\xd9\x01b" if k == "o" else canon_pack(v)) for k, v in items)
    rej("ERR_CORRUPT", str8, "a one-byte string in str8 form", sections=["OMS 4"])
    map16 = b"\xde\x00\x07" + good[1:]
    rej("ERR_CORRUPT", map16, "a 7-entry map in map16 form", sections=["OMS 4"])
    bom = b"\x87" + b"".join(canon_pack(k) + (canon_pack("\ufeffb") if k == "o" else canon_pack(v)) for k, v in items)
    rej("ERR_CORRUPT", bom, "a string starting with a BOM", sections=["OMS 4.4"])
    bad_utf8 = b"\x87" + b"".join(canon_pack(k) + (b"\xa2\xc3\x28" if k == "o" else canon_pack(v)) for k, v in items)
    rej("ERR_CORRUPT", bad_utf8, "invalid UTF-8 in a string", sections=["OMS 4.4"])
    bin_str = b"\x87" + b"".join(canon_pack(k) + (b"\xc4\x01b" if k == "o" else canon_pack(v)) for k, v in items)
    rej("ERR_SCHEMA", bin_str, "object as bin instead of str", sections=["OMS 6"])
    nonnfc = b"\x87" + b"".join(canon_pack(k) + (canon_pack("e\u0301") if k == "o" else canon_pack(v)) for k, v in items)
    rej("ERR_CORRUPT", nonnfc, "a string that is not NFC", flags=["should"], sections=["OMS 4.4"])
    deep = {"d": None}
    cur = deep
    for _ in range(40):
        cur["d"] = {"d": None}
        cur = cur["d"]
    cur["d"] = 1
    rej("ERR_CORRUPT", canon_pack(dict(BELIEF, ctx=deep)), "nesting deeper than 32 levels", flags=["should"],
        sections=["OMS 4.10"])
    # ERR_NOT_MAP
    for v, what in [([1, 2], "an array"), ("belief", "a string"), (7, "an integer"), (None, "nil"), (True, "a boolean"),
                    (0.5, "a float"), ([], "an empty array"), (b"\x01", "bin"), ([BELIEF], "an array holding a map"),
                    ("", "an empty string")]:
        rej("ERR_NOT_MAP", msgpack.packb(v, use_bin_type=True), f"payload is {what}")
    # ERR_NO_TYPE
    rej("ERR_NO_TYPE", b"\x80", "the minimum blob: an empty map", sections=["OMS 3.3", "OMS 19"])
    for drop in [["t"], ["t", "s"], ["t", "c", "o"]]:
        rej("ERR_NO_TYPE", canon_pack(with_fields(**{k: None for k in drop})), f"payload without t (also without {drop[1:]})")
    rej("ERR_NO_TYPE", canon_pack({"type": "belief", "s": "a"}), "the long key `type` instead of `t`")
    for i in range(5):
        rej("ERR_NO_TYPE", canon_pack({"k": i, "ca": T0}), "a map with no t at all")
    # ERR_UNKNOWN_TYPE
    for t in ["episode", "Belief", "BELIEF", "beliefs", "facts", "unknown", "x", " belief", "belief ", "memory"]:
        rej("ERR_UNKNOWN_TYPE", canon_pack(with_fields(t=t)), f"t = {t!r}")
    # ERR_SCHEMA: missing required fields per type, wrong shapes
    # ERR_SCHEMA and ERR_EMPTY per grain type: a valid grain of the type, encoded by us, with one
    # required field removed or emptied in its payload (the header stays that of the valid grain).
    def typed(g, code, what, drop=(), empty=(), setv=None):
        marked = dict(g)
        for f_ in list(drop) + list(empty):
            marked[f_] = "MARK-" + f_
        d, err = encode(marked)
        if d is None:
            DISAGREE.append(f"cannot build {what}: {err}")
            return
        blob = bytes.fromhex(d["blob_hex"])
        payload = msgpack.unpackb(blob[9:], raw=False, strict_map_key=False)
        for k in list(payload):
            v = payload[k]
            if isinstance(v, str) and v.startswith("MARK-"):
                if v[5:] in drop:
                    del payload[k]
                else:
                    payload[k] = ""
        for k, v in (setv or {}).items():
            payload[k] = v
        rej(code, canon_pack(payload), what, hdr=blob[:9], sections=["OMS 6", "OMS 8", "OMS 19"])

    bel = TYPES["belief"][0]
    for f_ in ["subject", "relation", "object"]:
        typed(bel, "ERR_SCHEMA", f"belief without {f_}", drop=[f_])
    typed(bel, "ERR_SCHEMA", "belief object is an integer", empty=["object"], setv={"o": 5})
    ev = TYPES["event"][0]
    typed(ev, "ERR_SCHEMA", "event without content", drop=["content"])
    typed(TYPES["workflow"][0], "ERR_SCHEMA", "workflow without trigger", drop=["trigger"])
    typed(TYPES["observation"][0], "ERR_SCHEMA", "observation without observer_id", drop=["observer_id"])
    typed(TYPES["observation"][0], "ERR_SCHEMA", "observation without observer_type", drop=["observer_type"])
    typed(TYPES["goal"][0], "ERR_SCHEMA", "goal without description", drop=["description"])
    typed(TYPES["consent"][0], "ERR_SCHEMA", "consent without subject_did", drop=["subject_did"])
    typed(TYPES["consent"][0], "ERR_SCHEMA", "consent without grantee_did", drop=["grantee_did"])
    typed(TYPES["consent"][1], "ERR_SCHEMA", "a withdrawal without prior_consent", drop=["prior_consent"])
    typed(TYPES["action"][0], "ERR_SCHEMA", "a complete action without tool_name", drop=["tool_name"])
    # ERR_EMPTY
    for f_ in ["subject", "relation"]:
        typed(bel, "ERR_EMPTY", f"belief with an empty {f_}", empty=[f_])
    typed(ev, "ERR_EMPTY", "event with empty content", empty=["content"])
    typed(TYPES["workflow"][0], "ERR_EMPTY", "workflow with an empty trigger", empty=["trigger"])
    typed(TYPES["observation"][0], "ERR_EMPTY", "observation with an empty observer_id", empty=["observer_id"])
    typed(TYPES["observation"][0], "ERR_EMPTY", "observation with an empty observer_type", empty=["observer_type"])
    typed(TYPES["goal"][0], "ERR_EMPTY", "goal with an empty description", empty=["description"])
    typed(TYPES["consent"][0], "ERR_EMPTY", "consent with an empty subject_did", empty=["subject_did"])
    typed(TYPES["consent"][0], "ERR_EMPTY", "consent with an empty grantee_did", empty=["grantee_did"])
    typed(TYPES["action"][0], "ERR_EMPTY", "action with an empty tool_name", empty=["tool_name"])
    # ERR_RANGE
    for fields, what in [({"c": 1.5}, "confidence 1.5"), ({"c": -0.1}, "confidence -0.1"), ({"c": 2.0}, "confidence 2.0"),
                         ({"im": 1.01}, "importance 1.01"), ({"im": -1.0}, "importance -1.0"), ({"sc": -1}, "success_count -1"),
                         ({"fc": -5}, "failure_count -5"), ({"c": 1.0000001}, "confidence just above 1"),
                         ({"im": 100.0}, "importance 100"), ({"c": -1e-9}, "confidence just below 0")]:
        rej("ERR_RANGE", canon_pack(with_fields(**fields)), what, sections=["OMS 19"])
    # ERR_FLOAT_INVALID
    for bits, what in [(0x7FF8000000000000, "NaN"), (0x7FF0000000000000, "+Infinity"), (0xFFF0000000000000, "-Infinity"),
                       (0xFFF8000000000000, "negative NaN"), (0x7FF0000000000001, "signalling NaN"),
                       (0x7FFFFFFFFFFFFFFF, "NaN with every mantissa bit")]:
        for key in ["c", "im"]:
            raw_v = b"\xcb" + bits.to_bytes(8, "big")
            m = dict(BELIEF, im=0.5)
            body = bytes([0x80 | len(m)]) + b"".join(canon_pack(k) + (raw_v if k == key else canon_pack(v)) for k, v in sorted(m.items()))
            rej("ERR_FLOAT_INVALID", body, f"{key} is {what}", sections=["OMS 4.3", "OMS 19"])
    # ERR_SIGNED_MISMATCH
    for flags in [0x01, 0x41, 0x81, 0x09, 0x11, 0xC1, 0x21, 0x51, 0x99, 0x19]:
        rej("ERR_SIGNED_MISMATCH", good, f"flags 0x{flags:02x}: signed bit set but no COSE wrapper", hdr=header(flags=flags),
            sections=["OMS 3.1.1", "OMS 19"])
    # ERR_SENSITIVITY_MISMATCH
    for tags, flags, what in [(["phi:diagnosis"], 0x00, "a phi tag with public sensitivity"),
                              (["phi:diagnosis"], 0x40, "a phi tag with internal sensitivity"),
                              (["phi:diagnosis"], 0x80, "a phi tag with pii sensitivity"),
                              (["pii:email"], 0x00, "a pii tag with public sensitivity"),
                              (["pii:email"], 0x40, "a pii tag with internal sensitivity"),
                              (["ok", "phi:lab_result"], 0x00, "a later phi tag"),
                              (["phi:diagnosis", "pii:email"], 0x80, "phi and pii tags with pii sensitivity"),
                              (["pii:phone"], 0x00, "another pii tag with public sensitivity"),
                              (["phi:medication"], 0x40, "another phi tag with internal sensitivity"),
                              (["a", "b", "pii:address"], 0x40, "a pii tag after two plain tags"),
                              (["sec:credentials"], 0x40, "a sec: tag (PII minimum) with internal sensitivity"),
                              (["legal:privileged"], 0x00, "a legal: tag (PII minimum) with public sensitivity"),
                              (["reg:sox"], 0x00, "a reg: tag (internal minimum) with public sensitivity")]:
        rej("ERR_SENSITIVITY_MISMATCH", canon_pack(with_fields(tags=tags)), what, hdr=header(flags=flags),
            sections=["OMS 13", "OMS 19"])


def main():
    encode_vectors()
    decode_vectors()
    sensitivity_vectors()
    cbor_vectors()
    reject_vectors()
    decode_of_encode_vectors()
    out_dir = os.path.join(ROOT, "cases", "mg")
    os.makedirs(out_dir, exist_ok=True)
    desc = {"encode": "Grain JSON to canonical blob and address for every grain type and canonical-encoding rule (OMS 1.3 §4, §5, §21).",
            "decode": "Canonical blobs to grain values and addresses for every grain type (OMS 1.3 §4, §5).",
            "reject": "Corrupt or non-canonical blobs with the ERR_* code OMS 1.3 §19/§21 names."}
    total = 0
    for area, cases in CASES.items():
        chunks = [cases[i:i + 140] for i in range(0, len(cases), 140)]
        for j, chunk in enumerate(chunks):
            name = area if j == 0 else f"{area}-{j + 1}"
            with open(os.path.join(out_dir, name + ".json"), "w") as f:
                json.dump({"$schema": "../../schema/case-file.schema.json", "description": desc[area], "cases": chunk}, f,
                          indent=1, ensure_ascii=False)
                f.write("\n")
        total += len(cases)
    with open(os.path.join(ROOT, "authoring", "execute_mg", "mg-disagreements.md"), "w") as f:
        f.write("# mg cases where our toolchain disagrees with OMS\n\nWritten by `mg_cases.py`; the case files keep OMS's answer.\n\n")
        f.write("\n".join("- " + d for d in DISAGREE) + "\n" if DISAGREE else "None.\n")
    print(f"{total} mg cases written; {len(DISAGREE)} disagreements (mg-disagreements.md)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
