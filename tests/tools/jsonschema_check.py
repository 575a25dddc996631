#!/usr/bin/env python3
"""Validates a data file against a JSON Schema with a real validator
(python3-jsonschema, Draft 2020-12), after an optional edit of the data.

usage: jsonschema_check.py [--write OUT.json] SCHEMA.json DATA.(json|yaml) [EDIT...]
       jsonschema_check.py --batch CASES
  set PATH JSON     replace or add the value at PATH (dot-separated keys
                    and list indexes: rooms.0.kind)
  del PATH          remove the key or item at PATH
  rename PATH NEW   rename the key at PATH

--write saves the edited data as JSON (to bake it too). Prints "valid", or "invalid: " and the first error's message; exits 0
when valid, 1 when invalid, 2 when the schema itself is not a valid JSON
Schema or the tools are missing (3).

--batch runs many cases in one process (a Python start costs more than a
check): each line of CASES is OUT.json, SCHEMA.json, DATA and the edits,
separated by tabs; for each it writes OUT.json as --write does and prints
one line, the exit code the single check would give, a tab and its
message.
"""
import json
import sys

try:
    import jsonschema
except ImportError:
    print("python3-jsonschema is not installed")
    sys.exit(3)


def load_data(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if path.endswith((".yaml", ".yml")):
        try:
            import yaml
        except ImportError:
            print("python3-yaml is not installed")
            sys.exit(3)
        # Read floats as YAML 1.2 does (1e-7 is a float there, a string in
        # PyYAML's YAML 1.1), as editors' YAML 1.2 readers will.
        import re

        class Loader(yaml.SafeLoader):
            pass

        Loader.add_implicit_resolver(
            "tag:yaml.org,2002:float",
            re.compile(r"^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$"),
            list("-+.0123456789"))
        return yaml.load(text, Loader=Loader)
    return json.loads(text)


def as_json(v):
    """YAML's .inf and .nan as the strings blobc's JSON reader takes."""
    if isinstance(v, float) and v != v:
        return "nan"
    if isinstance(v, float) and v in (float("inf"), float("-inf")):
        return "inf" if v > 0 else "-inf"
    if isinstance(v, list):
        return [as_json(x) for x in v]
    if isinstance(v, dict):
        return {k: as_json(x) for k, x in v.items()}
    return v


def walk(data, path):
    keys = path.split(".")
    for k in keys[:-1]:
        data = data[int(k)] if isinstance(data, list) else data[k]
    last = keys[-1]
    return data, int(last) if isinstance(data, list) else last


def check(schema_path, data_path, edits, write):
    """One check: (exit code, message)."""
    with open(schema_path, encoding="utf-8") as f:
        schema = json.load(f)
    cls = jsonschema.Draft202012Validator
    try:
        cls.check_schema(schema)
    except jsonschema.SchemaError as e:
        return 2, "bad schema: %s" % e.message
    data = load_data(data_path)
    edits = list(edits)
    while edits:
        op = edits.pop(0)
        parent, k = walk(data, edits.pop(0))
        if op == "set":
            value = json.loads(edits.pop(0))
            if isinstance(parent, list) and k == len(parent):
                parent.append(value)
            else:
                parent[k] = value
        elif op == "del":
            del parent[k]
        elif op == "rename":
            parent[edits.pop(0)] = parent.pop(k)
        else:
            return 2, "unknown edit %r" % op
    if write:
        with open(write, "w", encoding="utf-8") as f:
            json.dump(as_json(data), f, allow_nan=False)
    errors = sorted(cls(schema).iter_errors(data), key=lambda e: list(e.path))
    if not errors:
        return 0, "valid"
    return 1, "invalid: %s" % errors[0].message


def main(argv):
    if len(argv) == 3 and argv[1] == "--batch":
        with open(argv[2], encoding="utf-8") as f:
            cases = [line.rstrip("\n").split("\t") for line in f]
        for case in cases:
            try:
                rc, msg = check(case[1], case[2], case[3:], case[0])
            except Exception as e:  # a broken case, not a verdict
                rc, msg = 2, "%s: %s" % (type(e).__name__, e)
            print("%d\t%s" % (rc, msg.replace("\n", " ")))
        sys.stdout.flush()
        return 0
    write = None
    if len(argv) > 2 and argv[1] == "--write":
        write = argv[2]
        argv = argv[:1] + argv[3:]
    if len(argv) < 3:
        print(__doc__)
        return 2
    rc, msg = check(argv[1], argv[2], argv[3:], write)
    print(msg)
    return rc


sys.exit(main(sys.argv))
