"""Reads a JSON list of {lang, code} from stdin; prints, per item, whether it parses and the literal
strings it contains, so tests can check that each inserted value round-trips out of its literal."""
import ast
import json
import shlex
import sys


def python_strings(tree):
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            out.append(node.value)
    return out


def check(item):
    lang, code = item["lang"], item["code"]
    if lang == "python":
        try:
            tree = ast.parse(code)
        except SyntaxError as error:
            return {"ok": False, "error": f"{error.msg} (line {error.lineno})"}
        return {"ok": True, "strings": python_strings(tree)}
    if lang == "shell-words":
        try:
            return {"ok": True, "strings": shlex.split(code, comments=True, posix=True)}
        except ValueError as error:
            return {"ok": False, "error": str(error)}
    return {"ok": False, "error": f"unknown language {lang}"}


print(json.dumps([check(item) for item in json.load(sys.stdin)]))
