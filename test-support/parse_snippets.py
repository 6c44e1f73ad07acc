"""Reads a JSON list of {lang, code} from stdin; prints, per item, whether it parses, the literal
strings it contains (so tests can check that each inserted value round-trips out of its literal) and
for Python its shape: the syntax tree with every string value blanked, so tests can check that a
model-derived value never changes the structure of the code. With --lines, each stdin line is one
such list and each answer one stdout line."""
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


class _BlankStrings(ast.NodeTransformer):
    def visit_Constant(self, node):
        if isinstance(node.value, str):
            return ast.copy_location(ast.Constant(value=""), node)
        return node

    def visit_JoinedStr(self, node):
        # An f-string's literal parts may be split differently by escaping; its holes are what count.
        holes = [self.visit(v) for v in node.values if isinstance(v, ast.FormattedValue)]
        return ast.copy_location(ast.JoinedStr(values=holes), node)


def python_shape(tree):
    return ast.dump(_BlankStrings().visit(tree), annotate_fields=False)


def check(item):
    lang, code = item["lang"], item["code"]
    if lang == "python":
        try:
            tree = ast.parse(code)
        except SyntaxError as error:
            return {"ok": False, "error": f"{error.msg} (line {error.lineno})"}
        return {"ok": True, "strings": python_strings(tree), "shape": python_shape(tree)}
    if lang == "shell-words":
        try:
            return {"ok": True, "strings": shlex.split(code, comments=True, posix=True)}
        except ValueError as error:
            return {"ok": False, "error": str(error)}
    return {"ok": False, "error": f"unknown language {lang}"}


if sys.argv[1:] == ["--lines"]:
    # One batch per line each way, for a test file that keeps this process for all its checks (JSON
    # escapes line breaks inside strings). Bytes, so UTF-8 whatever the locale says.
    for line in sys.stdin.buffer:
        print(json.dumps([check(item) for item in json.loads(line)]), flush=True)
else:
    print(json.dumps([check(item) for item in json.load(sys.stdin)]))
