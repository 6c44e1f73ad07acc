"""Helpers shared by the scripts that drive the real huggingface_hub in the tests."""

import hashlib


def sha256_of(path):
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def attempt(call):
    """The call's result, or what it raised: class name, HTTP status and message."""
    try:
        return {"ok": call()}
    except Exception as error:  # the class is the fact under test
        response = getattr(error, "response", None)
        return {
            "error": type(error).__name__,
            "status": getattr(response, "status_code", None),
            "message": str(error)[:2000],
        }
