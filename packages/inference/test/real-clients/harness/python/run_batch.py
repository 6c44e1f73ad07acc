"""Runs a batch of Python snippets in this one interpreter, each as its own `__main__` module.

Usage: run_batch.py <batch.json> <results.json>. Each item is {id, code, env, mode}: `run` executes
the code in a fresh namespace with the item's environment (and only the harness's base environment
besides), `parse` only compiles it. The result per item is its exit status as `python file.py` would
give it (0, the SystemExit code, or 1 for an uncaught exception), the exception, and the output.
"""

import contextlib
import io
import json
import os
import signal
import sys
import time
import traceback

import sitecustomize

TIMEOUT_SECONDS = 60


class SnippetTimeout(Exception):
    pass


def _on_alarm(signum, frame):
    raise SnippetTimeout(f"snippet still running after {TIMEOUT_SECONDS} s")


def run_one(item, base_env):
    os.environ.clear()
    os.environ.update(base_env)
    os.environ.update(item["env"])
    sitecustomize.set_run(item["id"])
    output = io.StringIO()
    status, error = 0, None
    started = time.monotonic()
    try:
        code = compile(item["code"], f"<{item['id']}>", "exec")
        if item["mode"] == "run":
            signal.alarm(TIMEOUT_SECONDS)
            with contextlib.redirect_stdout(output), contextlib.redirect_stderr(output):
                exec(code, {"__name__": "__main__", "__builtins__": __builtins__})
    except SystemExit as exit_:
        status = exit_.code if isinstance(exit_.code, int) else (0 if exit_.code is None else 1)
    except BaseException as exception:  # noqa: BLE001 - a snippet's failure is its result
        status = 1
        error = f"{type(exception).__name__}: {exception}".split("\n")[0]
        output.write(traceback.format_exc(limit=-4))
    finally:
        signal.alarm(0)
    seconds = round(time.monotonic() - started, 3)
    return {"id": item["id"], "status": status, "error": error, "output": output.getvalue()[-4000:], "seconds": seconds}


def main():
    items = json.load(open(sys.argv[1], encoding="utf-8"))
    base_env = dict(os.environ)
    signal.signal(signal.SIGALRM, _on_alarm)
    results = [run_one(item, base_env) for item in items]
    with open(sys.argv[2], "w", encoding="utf-8") as out:
        json.dump(results, out)


if __name__ == "__main__":
    main()
