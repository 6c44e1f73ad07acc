"""Helpers shared by the scripts that drive the real huggingface_hub in the tests."""

import hashlib


def sha256_of(path):
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()
