"""Writing, or checking, the case files a generator stores under conformance/cases/generated/.

Each generator makes its files in memory ({file name: text}) from its seed; `store` writes
them (removing the files of the same prefix it no longer makes), or with `check` compares
them with what is stored and names every stale or extra file, so a test can hold that the
stored corpus is exactly what the seed gives.
"""

import os

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
OUT = os.path.join(ROOT, "cases", "generated")


def store(files, prefix, check, seed):
    """Writes `files` under OUT (or compares them, with `check`); the exit status."""
    if check:
        stale = [k for k, text in files.items() if not os.path.exists(os.path.join(OUT, k))
                 or open(os.path.join(OUT, k), encoding="utf-8").read() != text]
        extra = [k for k in os.listdir(OUT) if k.startswith(prefix) and k not in files] if os.path.isdir(OUT) else []
        for k in stale + extra:
            print(f"stale: conformance/cases/generated/{k}")
        return 1 if stale or extra else 0
    os.makedirs(OUT, exist_ok=True)
    for k in os.listdir(OUT):
        if k.startswith(prefix) and k not in files:
            os.unlink(os.path.join(OUT, k))
    for k, text in files.items():
        with open(os.path.join(OUT, k), "w", encoding="utf-8") as f:
            f.write(text)
    print(f"{len(files)} files under conformance/cases/generated (seed {seed})")
    return 0
