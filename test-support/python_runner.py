"""Runs Python snippets as `python -` would (and scripts as `python script args…`), each in a child
forked from this one long-lived interpreter that has imported, once, the heavy modules whose behaviour
does not depend on the environment (torch: ~3 s of CPU per interpreter). Driven by
test-support/python-runner.ts.

Usage: python_runner.py <config.json>: {"preload": [module, ...], "spawn_env": [name, ...]}, the names
of the variables this interpreter was started with (so that the ones Python adds at start, such as the
LC_CTYPE of locale coercion, reach each child as they would reach a fresh interpreter).

Protocol: one JSON object per line. This process prints {"ready": [modules]} once preloaded (or
{"refused": reason} and exits), then for each {"run": id, "code", "env", "cwd", "stdout", "stderr"} read
on stdin (a script run has "script" and "args" instead of "code", and may name a "stdin" file):
{"started": id, "pid"} and, when the child ends, {"exited": id, "status"} (the exit status as
`os.waitstatus_to_exitcode` gives it: negative for a signal). {"kill": id} sends the child SIGKILL.

The child sets the snippet's whole environment and working folder first, and only then runs the code:
huggingface_hub, transformers, datasets and the libraries built on them read HF_* variables (and HOME)
when imported, so none of them may be imported here (checked before every fork). Nor may a thread be
running here when it forks (checked at start, after a first fork, and before every fork).
"""

import atexit
import gc
import json
import os
import select
import signal
import sys
import types

# Read HF_*, HOME or their own settings' paths at import: they must be imported by each child, after its
# environment is set (accelerate reads HF_HOME, fsspec a config folder under HOME).
ENVIRONMENT_READERS = (
    "huggingface_hub",
    "transformers",
    "datasets",
    "diffusers",
    "accelerate",
    "peft",
    "timm",
    "sentence_transformers",
    "hf_xet",
    "fsspec",
    "evaluate",
    "gguf",
)


def environment_readers_loaded():
    return sorted({name.split(".")[0] for name in sys.modules} & set(ENVIRONMENT_READERS))


def other_threads():
    """Names of this process's threads other than its main one (the one that forks: its id is the pid)."""
    names = []
    for tid in os.listdir("/proc/self/task"):
        if int(tid) != os.getpid():
            try:
                with open(f"/proc/self/task/{tid}/comm", encoding="utf-8") as comm:
                    names.append(comm.read().strip())
            except FileNotFoundError:
                pass  # it ended since the listing

    return sorted(names)


def threads_outliving_a_fork():
    """Forks a child that exits at once, then lists the threads still running here.

    A child gets only the forking thread: a lock another thread held at the fork stays held in the child
    for ever, and the child hangs when it takes it. Libraries that stop their pools at a fork (OpenBLAS's
    atfork handler) leave none; a thread that outlives it (pyarrow's jemalloc background thread, started
    when pandas or scikit-learn is imported) makes the preload unsafe to fork from.
    """
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    os.waitpid(pid, 0)
    return other_threads()


def send(fd, message):
    data = (json.dumps(message) + "\n").encode("utf-8")
    while data:
        data = data[os.write(fd, data):]


def run_child(request, started_env, close_fds):
    """In the forked child: becomes `cd cwd && env -i ENV python - < code`, or with a script
    `cd cwd && env -i ENV python script args… < stdin`; never returns."""
    for fd in close_fds:
        os.close(fd)
    stdin = os.open(request.get("stdin") or os.devnull, os.O_RDONLY)
    os.dup2(stdin, 0)
    os.close(stdin)
    for target, path in ((1, request["stdout"]), (2, request["stderr"])):
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.dup2(fd, target)
        os.close(fd)
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(started_env)
    os.environ.update(request["env"])
    script = request.get("script")
    if script is None:
        # What `python -` has: argv ["-"], the working folder first on the path, a fresh __main__.
        sys.argv = ["-"]
        sys.path[0] = ""
        filename, source = "<stdin>", request["code"]
    else:
        # What `python script args…` has: the script's real folder first on the path.
        sys.argv = [script, *request["args"]]
        sys.path[0] = os.path.dirname(os.path.realpath(script))
        with open(script, "rb") as file:
            filename, source = script, file.read()
    main = types.ModuleType("__main__")
    main.__dict__.update({"__file__": filename, "__builtins__": __builtins__})
    sys.modules["__main__"] = main
    try:
        exec(compile(source, filename, "exec"), main.__dict__)
    except SystemExit as stop:
        finish(exit_status(stop))
    except BaseException:  # noqa: BLE001 - printed and exit 1, as an uncaught exception at the top
        kind, value, trace = sys.exc_info()
        # The traceback from the snippet's own frame on, without this runner's (the hook prints the
        # exception's own __traceback__, so that is where it is cut).
        value.__traceback__ = trace.tb_next if trace is not None else None
        sys.excepthook(kind, value, value.__traceback__)
        finish(1)
    finish(0)


def exit_status(stop):
    """The status the interpreter exits with for an uncaught SystemExit (printing a non-int code)."""
    if stop.code is None:
        return 0
    if isinstance(stop.code, int):
        return stop.code & 0xFF
    print(stop.code, file=sys.stderr)
    return 1


def finish(status):
    """Ends the child as the interpreter ends: non-daemon threads joined, atexit handlers run, the
    standard streams flushed; then os._exit, without the interpreter's teardown of every module. In a
    forked child that teardown writes to most of the parent's objects, copying their pages: ~5 s of CPU
    per run with torch preloaded, more than the preload saves. Objects still alive are not finalised (as
    in a multiprocessing worker): a file a snippet leaves open unflushed stays unflushed."""
    threading = sys.modules.get("threading")
    if threading is not None:
        threading._shutdown()  # noqa: SLF001 - what the interpreter calls at exit
    atexit._run_exitfuncs()  # noqa: SLF001 - likewise
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (AttributeError, OSError, ValueError):
            pass  # replaced, closed or gone: the interpreter ignores these too
    os._exit(status)


def serve(config):
    preload = config["preload"]
    # Every module this interpreter would hand to the children: any environment reader is refused.
    for name in preload:
        __import__(name)
    command_fd = os.dup(0)
    reply_fd = os.dup(1)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    os.dup2(2, 1)  # a stray print of this process must not corrupt the replies
    loaded = environment_readers_loaded()
    if loaded:
        send(reply_fd, {"refused": f"imported before the fork, but they read the environment at import: {', '.join(loaded)}"})
        return 2
    threads = threads_outliving_a_fork()
    if threads:
        send(reply_fd, {"refused": f"the preload leaves threads running across a fork: {', '.join(threads)}"})
        return 2
    # What the preload made is never collected: kept out of the children's collections, whose walks would
    # otherwise write to it and copy its pages into each child.
    gc.freeze()
    spawn_names = set(config["spawn_env"])
    # What Python added to its own environment at start (PEP 538's LC_CTYPE): a fresh one would add it too.
    started_env = {name: value for name, value in os.environ.items() if name not in spawn_names}
    send(reply_fd, {"ready": preload})

    poller = select.poll()
    poller.register(command_fd, select.POLLIN)
    children = {}  # pidfd -> (id, pid)
    pidfd_of = {}  # id -> pidfd
    pending = b""
    open_input = True
    while open_input or children:
        for fd, _ in poller.poll():
            if fd == command_fd:
                chunk = os.read(command_fd, 1 << 16)
                if not chunk:
                    open_input = False
                    poller.unregister(command_fd)
                    # The driver is gone: nothing will read what the children print or how they end.
                    for pidfd in children:
                        signal.pidfd_send_signal(pidfd, signal.SIGKILL)
                    continue
                pending += chunk
                *lines, pending = pending.split(b"\n")
                for line in lines:
                    request = json.loads(line)
                    if "kill" in request:
                        pidfd = pidfd_of.get(request["kill"])
                        if pidfd is not None:
                            signal.pidfd_send_signal(pidfd, signal.SIGKILL)
                        continue
                    loaded = environment_readers_loaded()
                    if loaded:
                        raise RuntimeError(f"refusing to fork: {', '.join(loaded)} imported in the runner")
                    threads = other_threads()
                    if threads:
                        raise RuntimeError(f"refusing to fork: threads running in the runner: {', '.join(threads)}")
                    sys.stdout.flush()
                    sys.stderr.flush()
                    pid = os.fork()
                    if pid == 0:
                        run_child(request, started_env, [command_fd, reply_fd, *children])
                    pidfd = os.pidfd_open(pid)
                    children[pidfd] = (request["run"], pid)
                    pidfd_of[request["run"]] = pidfd
                    poller.register(pidfd, select.POLLIN)
                    send(reply_fd, {"started": request["run"], "pid": pid})
            else:
                run_id, pid = children.pop(fd)
                del pidfd_of[run_id]
                poller.unregister(fd)
                os.close(fd)
                _, wait_status = os.waitpid(pid, 0)
                send(reply_fd, {"exited": run_id, "status": os.waitstatus_to_exitcode(wait_status)})
    return 0


if __name__ == "__main__":
    with open(sys.argv[1], encoding="utf-8") as config_file:
        settings = json.load(config_file)
    sys.exit(serve(settings))
