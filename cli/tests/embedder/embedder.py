#!/usr/bin/env python3
"""A deterministic multilingual test embedder for CAL's semantic search tests.

It serves the OpenAI-compatible embeddings API (POST /v1/embeddings) on 127.0.0.1, or,
with --stdio, speaks the command protocol (one JSON string per line in, one JSON array per
line out). Vectors are built from multilingual.json: one dimension per concept, set to its
weight when a text holds one of the concept's words in any of five languages, so a phrase
and its translations point the same way; the last 24 dimensions hash the remaining words lightly,
so unrelated texts differ without matching.

Models with special behaviour, for failure tests:
  wrong-dims  answers vectors one dimension too long
  slow        answers after 5 seconds
  broken      answers HTTP 500
"""
import json
import re
import sys
import time
import unicodedata
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

FIXTURE = json.loads((Path(__file__).parent / "multilingual.json").read_text(encoding="utf-8"))
DIMS = FIXTURE["dimensions"]
HASHED = 24
LANGS = ("en", "fr", "es", "de", "ja")


def words(text):
    return re.findall(r"\w+", unicodedata.normalize("NFC", text).lower())


def matches(keyword, text, tokens, joined):
    if not keyword.isascii() and not any(c.isalpha() and ord(c) < 0x3000 for c in keyword):
        return keyword in text  # Japanese: no spaces between words
    if " " in keyword:
        return f" {keyword} " in f" {joined} "
    return keyword in tokens


def embed(text):
    text = unicodedata.normalize("NFC", text).lower()
    tokens = words(text)
    joined = " ".join(tokens)
    vector = [0.0] * DIMS
    used = set()
    for i, concept in enumerate(FIXTURE["concepts"]):
        for lang in LANGS:
            for keyword in concept.get(lang, []):
                if matches(keyword, text, tokens, joined):
                    vector[i] = concept["weight"]
                    used.update(keyword.split())
    for t in tokens:
        if t not in used:
            vector[DIMS - HASHED + zlib.crc32(t.encode()) % HASHED] += 0.15
    return vector


def answer(model, texts):
    vectors = [embed(t) for t in texts]
    if model == "wrong-dims":
        vectors = [v + [0.0] for v in vectors]
    return vectors


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_POST(self):
        if self.path.rstrip("/") != "/v1/embeddings":
            self.send_error(404)
            return
        length = int(self.headers.get("content-length", "0"))
        body = json.loads(self.rfile.read(length) or b"{}")
        model, texts = body.get("model"), body.get("input")
        if isinstance(texts, str):
            texts = [texts]
        if model == "slow":
            time.sleep(5)
        if model == "broken":
            self.send_error(500, "the model is broken")
            return
        data = [{"object": "embedding", "index": i, "embedding": v} for i, v in enumerate(answer(model, texts))]
        out = json.dumps({"object": "list", "model": model, "data": data}).encode()
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(out)))
        self.end_headers()
        self.wfile.write(out)


def main():
    if "--stdio" in sys.argv:
        for line in sys.stdin:
            if line.strip():
                print(json.dumps(embed(json.loads(line))), flush=True)
        return
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(f"listening {server.server_address[1]}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
